import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import NewsletterForm from '@/forms/NewsletterForm'
import { formContext, formMessages } from '@/lib/mail/slice'

/** Props for `Newsletter`. */
export type NewsletterProps = SliceComponentProps<Content.NewsletterSlice>

/** The newsletter sign-up's slice: words from the slice, the form is a client leaf. */
export default async function Newsletter({ slice, index, context }: NewsletterProps) {
  const { lang, contactEmail, options } = await formContext(context)
  const p = slice.primary
  // The form is named by its heading (a form landmark a screen reader lists by that name).
  const headingId = isFilled.keyText(p.heading) ? `${slice.slice_type}-${index}-heading` : undefined
  return (
    <section
      className="slice slice-newsletter"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {headingId && <h2 id={headingId}>{p.heading}</h2>}
      <PrismicRichText field={p.intro} />
      <NewsletterForm
        label={p.email_label ?? ''}
        messages={formMessages(p)}
        options={options}
        labelledBy={headingId}
        lang={lang}
        contactEmail={contactEmail}
      />
    </section>
  )
}
