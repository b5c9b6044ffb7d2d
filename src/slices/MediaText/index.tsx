import { isFilled, type Content } from '@prismicio/client'
import { ContentLink } from '@/components/ContentLink'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'

/** Props for `MediaText`. */
export type MediaTextProps = SliceComponentProps<Content.MediaTextSlice>

/** An image beside a heading, text and a link; the image goes left or right by variation. */
export default function MediaText({ slice }: MediaTextProps) {
  const { eyebrow, heading, text, image, cta_label, cta_link } = slice.primary
  return (
    <section
      className={`slice slice-media-text${slice.variation === 'imageRight' ? ' is-reversed' : ''}`}
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      <ContentImage field={image} className="media-image" sizes="(min-width: 48rem) 50vw, 100vw" />
      <div className="media-copy">
        {isFilled.keyText(eyebrow) && <p className="eyebrow">{eyebrow}</p>}
        {isFilled.keyText(heading) && <h2>{heading}</h2>}
        <PrismicRichText field={text} />
        {isFilled.link(cta_link) && isFilled.keyText(cta_label) && (
          <ContentLink field={cta_link} className="text-link">
            {cta_label}
          </ContentLink>
        )}
      </div>
    </section>
  )
}
