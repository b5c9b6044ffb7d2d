import { isFilled, type Content } from '@prismicio/client'
import { PrismicNextLink } from '@prismicio/next'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `Hero`. */
export type HeroProps = SliceComponentProps<Content.HeroSlice>

/** The opening of a page: a lead, text and a call to action. */
export default function Hero({ slice }: HeroProps) {
  const { eyebrow, text, cta_label, cta_link } = slice.primary
  return (
    <section
      className="slice slice-hero"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(eyebrow) && <p className="eyebrow">{eyebrow}</p>}
      <div className="lead">
        <PrismicRichText field={text} />
      </div>
      {isFilled.link(cta_link) && isFilled.keyText(cta_label) && (
        <PrismicNextLink field={cta_link} className="button">
          {cta_label}
        </PrismicNextLink>
      )}
    </section>
  )
}
