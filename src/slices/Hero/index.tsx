import { isFilled, type Content } from '@prismicio/client'
import { ContentLink } from '@/components/ContentLink'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'
import { sliceContext } from '@/lib/content/slice-context'
import ThreeSlot from '@/three/ThreeSlot'
import { heroSlot } from '@/three/fields'

/** Props for `Hero`. */
export type HeroProps = SliceComponentProps<Content.HeroSlice>

/**
 * The opening of a page: a heading, text, a call to action, and a poster that is the page's LCP
 * element. First on a page, its heading is the page's title as the h1. The live 3D scene (from
 * src/three) mounts in the `data-3d-slot` wrapper, over the poster.
 */
export default function Hero({ slice, index, context }: HeroProps) {
  const { title, lang, look } = sliceContext(context)
  const { eyebrow, heading, text, cta_label, cta_link, poster, scene_description } = slice.primary
  const isFirst = index === 0 && !!title
  const slot = heroSlot(slice, lang, look)
  return (
    <section
      className="slice slice-hero"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      <div className="hero-copy">
        {isFilled.keyText(eyebrow) && <p className="eyebrow">{eyebrow}</p>}
        {isFirst ? (
          <h1 className="hero-title">{title}</h1>
        ) : (
          isFilled.keyText(heading) && <h2 className="hero-title">{heading}</h2>
        )}
        <div className="lead">
          <PrismicRichText field={text} />
        </div>
        {isFilled.link(cta_link) && isFilled.keyText(cta_label) && (
          <ContentLink field={cta_link} className="button">
            {cta_label}
          </ContentLink>
        )}
      </div>
      <div className="hero-visual" data-3d-slot="hero">
        <ThreeSlot {...slot} description={scene_description || poster.alt || ''}>
          <ContentImage
            field={poster}
            decorative
            priority={isFirst}
            sizes="(min-width: 64rem) 50vw, 100vw"
            className="hero-poster"
          />
        </ThreeSlot>
      </div>
    </section>
  )
}
