import type { Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `RichText`. */
export type RichTextProps = SliceComponentProps<Content.RichTextSlice>

/** Formatted text from the CMS. */
export default function RichText({ slice }: RichTextProps) {
  return (
    <section
      className="slice slice-rich-text"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      <div className="prose">
        <PrismicRichText field={slice.primary.content} />
      </div>
    </section>
  )
}
