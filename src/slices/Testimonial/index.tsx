import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'

/** Props for `Testimonial`. */
export type TestimonialProps = SliceComponentProps<Content.TestimonialSlice>

/** A quote from a client, with their name and role, and a portrait in one variation. */
export default function Testimonial({ slice }: TestimonialProps) {
  const { quote, name, role } = slice.primary
  return (
    <section
      className="slice slice-testimonial"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      <figure className="quote">
        <blockquote>
          <PrismicRichText field={quote} />
        </blockquote>
        <figcaption className="quote-by">
          {slice.variation === 'withPortrait' && (
            <ContentImage
              field={slice.primary.portrait}
              decorative
              className="quote-portrait"
              sizes="4rem"
            />
          )}
          <span>
            {isFilled.keyText(name) && <strong>{name}</strong>}
            {isFilled.keyText(role) && <span className="quote-role">{role}</span>}
          </span>
        </figcaption>
      </figure>
    </section>
  )
}
