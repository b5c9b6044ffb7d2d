import { isFilled, type Content } from '@prismicio/client'
import { ContentLink } from '@/components/ContentLink'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `CallToAction`. */
export type CallToActionProps = SliceComponentProps<Content.CallToActionSlice>

/** A heading, a sentence and a button; the accent variation is a full-width coloured band. */
export default function CallToAction({ slice }: CallToActionProps) {
  const { heading, text, button_label, button_link } = slice.primary
  return (
    <section
      className={`slice slice-cta${slice.variation === 'accent' ? ' is-accent' : ''}`}
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <PrismicRichText field={text} />
      {isFilled.link(button_link) && isFilled.keyText(button_label) && (
        <ContentLink field={button_link} className="button">
          {button_label}
        </ContentLink>
      )}
    </section>
  )
}
