// `content:check`'s forms: every word a form slice (ContactForm, Newsletter) shows or says comes
// from its fields (src/lib/mail/slice.ts: no page text lives in code), so an empty one is a form
// that says nothing at that moment: an invalid field with no error read out, a send with no
// "sending" or "sent", a trap filled by a password manager with no word why. Each empty field a
// visitor may need is refused here, in the published documents and in every release, naming the
// document's file, the slice and the field.
import { MESSAGE_FIELDS } from '../../rules/forms'
import { slicesOf, type Json } from './hotspots-check'
import type { ContentProblem, ContentStore } from './store'

/** The fields both form slices read out: the e-mail field's label, and every word of the form's. */
const SHARED = ['email_label', ...MESSAGE_FIELDS] as const

/** Each form slice's fields a visitor may need, by slice type. */
export const FORM_WORDS: Record<string, readonly string[]> = {
  contact_form: ['name_label', 'subject_label', 'message_label', ...SHARED],
  newsletter: SHARED,
}

/** What the visitor would miss, for the message of each field's problem. */
function missed(field: string): string {
  if (field.startsWith('error_')) return 'an error with no words read out'
  switch (field) {
    case 'honeypot_label':
      return 'a trap field with no label telling people to leave it'
    case 'message_id_label':
      return 'a message reference with no words saying what it is'
    case 'copied_label':
      return 'a copy with no word that it was done'
    case 'submit_label':
    case 'copy_label':
    case 'mailto_label':
      return 'a button or link with no name'
  }
  if (field.endsWith('_label')) return 'a field with no name'
  return 'a state of the send with nothing shown or read out'
}

/** Every empty form word in `stores` (the published documents, then each release), each once. */
export function checkForms(stores: ContentStore[]): ContentProblem[] {
  const seen = new Set<string>()
  const problems: ContentProblem[] = []
  for (const store of stores)
    for (const entry of store.documents)
      for (const [slice, at] of slicesOf(entry.doc.data as Record<string, Json>)) {
        const fields = FORM_WORDS[slice.slice_type]
        if (!fields) continue
        for (const field of fields) {
          const value = slice.primary?.[field]
          if (typeof value === 'string' && value.trim() !== '') continue
          const problem = {
            file: entry.file,
            path: `${at}.primary.${field}`,
            message: `(slice ${slice.slice_type}) is empty: the form would show ${missed(field)}. Write it in the page's language`,
          }
          const key = `${problem.file}\0${problem.path}`
          if (!seen.has(key)) problems.push(problem)
          seen.add(key)
        }
      }
  return problems
}
