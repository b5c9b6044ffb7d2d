import type { MailErrorKind } from '@/lib/mail/errors'
import type { FieldErrorCode } from './limits'

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
