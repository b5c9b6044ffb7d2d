import type { MailErrorKind } from '@/lib/mail/errors'
import type { FieldErrorCode } from './limits'

/**
 * The form slices' fields these words come from (`formMessages`, src/lib/mail/slice.ts), which
 * `content:check` requires filled (services/content-api/forms-check.ts).
 */
export const MESSAGE_FIELDS = [
  'submit_label',
  'sending_message',
  'success_message',
  'message_id_label',
  'queued_message',
  'error_required',
  'error_too_long',
  'error_email',
  'error_characters',
  'error_invalid',
  'error_blocked',
  'error_headless',
  'error_unavailable',
  'too_fast_message',
  'trap_message',
  'honeypot_label',
  'copy_label',
  'copied_label',
  'mailto_label',
] as const

/** Every word a form shows, from the CMS (the slice's fields). No page text lives in code. */
export type FormMessages = {
  submit: string
  sending: string
  success: string
  messageIdLabel: string
  /** Network, 5xx, 429: saved on the device and sent automatically. */
  queued: string
  /** Per field error code; `{max}` is replaced by the bound. */
  errors: Record<FieldErrorCode, string>
  /** Per refusal that waits for the visitor. */
  failures: Record<Exclude<MailErrorKind, 'network' | 'unavailable' | 'rate_limited'>, string>
  tooFast: string
  /** The trap field was filled: not sent, the trap emptied, send again. */
  trapped: string
  honeypotLabel: string
  copy: string
  copied: string
  mailto: string
}

/** The words for a field error code, with its bound filled in. */
export function fieldErrorText(
  messages: FormMessages,
  code: string | undefined,
  max: number,
): string {
  const known = (code && code in messages.errors ? code : 'required') as FieldErrorCode
  return messages.errors[known].replaceAll('{max}', String(max))
}
