import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `ContactForm`. */
export type ContactFormProps = SliceComponentProps<Content.ContactFormSlice>

/** The contact form's slice. The form itself (src/forms) is wired in by the e-mail work. */
export default function ContactForm({ slice }: ContactFormProps) {
  return (
    <section
      className="slice slice-contact-form"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(slice.primary.heading) && <h2>{slice.primary.heading}</h2>}
      <PrismicRichText field={slice.primary.intro} />
    </section>
  )
}
