import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import ContactFormFields from '@/forms/ContactForm'
import { formContext, formMessages } from '@/lib/mail/slice'

/** Props for `ContactForm`. */
export type ContactFormProps = SliceComponentProps<Content.ContactFormSlice>

/**
 * The contact form's slice: every word from the slice, the mailto address from `settings`, the
 * mail options from config; the form is a client leaf.
 */
export default async function ContactForm({ slice, index, context }: ContactFormProps) {
  const { lang, contactEmail, options } = await formContext(context)
  const p = slice.primary
  // The form is named by its heading (a form landmark a screen reader lists by that name).
  const headingId = isFilled.keyText(p.heading) ? `${slice.slice_type}-${index}-heading` : undefined
  return (
    <section
      className="slice slice-contact-form"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {headingId && <h2 id={headingId}>{p.heading}</h2>}
      <PrismicRichText field={p.intro} />
      <ContactFormFields
        labels={{
          name: p.name_label ?? '',
          email: p.email_label ?? '',
          subject: p.subject_label ?? '',
          message: p.message_label ?? '',
        }}
        defaultSubject={p.subject_default ?? ''}
        messages={formMessages(p)}
        options={options}
        labelledBy={headingId}
        lang={lang}
        contactEmail={contactEmail}
      />
    </section>
  )
}
