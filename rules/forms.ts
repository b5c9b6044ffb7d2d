// The forms' words as content: which fields of a form slice a form reads its words from, so
// `content:check` refuses a slice that leaves one empty. Read by the site and the services alike.

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
