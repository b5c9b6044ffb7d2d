import { z } from 'zod'
import { LIMITS, type FieldErrorCode } from './limits'

/**
 * The forms' fields, bounds and error codes, declared once. The same schemas check input as the
 * visitor types, again on submit, and on every message taken from the outbox before it is sent.
 * Error messages are codes (`FieldErrorCode`); the words for each come from the CMS (the slice).
 */

export { LIMITS, type FieldErrorCode } from './limits'

/**
 * Characters refused in one-line fields (they land in e-mail headers): every control character,
 * CR and LF among them, and Unicode line and paragraph separators.
 */
const ONE_LINE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
/** Characters refused in the message body: control characters except tab, CR and LF. */
const TEXT_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

// Before any schema is built: zod compiles object parsers with `new Function` unless told not to,
// and probes for it with a `new Function("")` when the first object schema is made. The site's policy
// has no 'unsafe-eval', so that probe was refused and reported as a Content Security Policy
// violation (Firefox raises it as an uncaught error) on every page with a form.
z.config({ jitless: true })

const code = (c: FieldErrorCode) => ({ error: c })

function oneLine(max: number) {
  return z
    .string(code('required'))
    .trim()
    .min(1, code('required'))
    .max(max, code('too_long'))
    .refine((v) => !ONE_LINE_UNSAFE.test(v), code('characters'))
}

/** An e-mail address: one line, at most 254 characters, the shape browsers accept. */
const email = z
  .string(code('required'))
  .trim()
  .min(1, code('required'))
  .max(LIMITS.email, code('too_long'))
  .refine((v) => !ONE_LINE_UNSAFE.test(v), code('characters'))
  .pipe(z.email(code('email')))

/** What the visitor types in the contact form. */
export const contactFields = z.object({
  name: oneLine(LIMITS.name),
  email,
  subject: oneLine(LIMITS.subject),
  message: z
    .string(code('required'))
    .trim()
    .min(1, code('required'))
    .max(LIMITS.message, code('too_long'))
    .refine((v) => !TEXT_UNSAFE.test(v), code('characters')),
})

/** What the visitor types in the newsletter form. */
export const newsletterFields = z.object({ email })

export type ContactFields = z.infer<typeof contactFields>
export type NewsletterFields = z.infer<typeof newsletterFields>

/** What every message carries besides the visitor's fields. */
const envelope = z.object({
  /** The message's id: a retry of the same message carries the same id. */
  message_id: z.uuid(),
  /** The page's language. */
  lang: z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i),
})

/** The contact form's template parameters, exactly as sent. */
export const contactMessage = contactFields.extend(envelope.shape)
/** The newsletter's form fields, exactly as sent. */
export const newsletterMessage = newsletterFields.extend(envelope.shape)

export type ContactMessage = z.infer<typeof contactMessage>
export type NewsletterMessage = z.infer<typeof newsletterMessage>

/** The forms by kind. */
export const messageSchemas = { contact: contactMessage, newsletter: newsletterMessage } as const
export type FormKind = keyof typeof messageSchemas
