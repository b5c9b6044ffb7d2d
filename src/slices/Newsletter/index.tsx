import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `Newsletter`. */
export type NewsletterProps = SliceComponentProps<Content.NewsletterSlice>

/** The newsletter sign-up's slice. The form itself (src/forms) is wired in by the e-mail work. */
export default function Newsletter({ slice }: NewsletterProps) {
  return (
    <section
      className="slice slice-newsletter"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(slice.primary.heading) && <h2>{slice.primary.heading}</h2>}
      <PrismicRichText field={slice.primary.intro} />
    </section>
  )
}
