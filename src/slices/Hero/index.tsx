import { isFilled, type Content } from '@prismicio/client'
import { PrismicNextImage, PrismicNextLink } from '@prismicio/next'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import ThreeSlot from '@/three/ThreeSlot'
import { heroSlot } from '@/three/fields'

/** Props for `Hero`. */
export type HeroProps = SliceComponentProps<Content.HeroSlice>

/** The opening of a page: a lead, text and a call to action. */
export default function Hero({ slice }: HeroProps) {
  const { eyebrow, text, cta_label, cta_link, poster } = slice.primary
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
      <div className="hero-3d" data-3d-slot="">
        <ThreeSlot {...heroSlot(slice)}>
          {isFilled.image(poster) && (
            <PrismicNextImage
              field={poster}
              alt=""
              preload
              fetchPriority="high"
              sizes="(min-width: 64rem) 50vw, 100vw"
            />
          )}
        </ThreeSlot>
      </div>
    </section>
  )
}
