/**
 * The embedded mail API's errors. Every refusal is an `EmailJsError` carrying the status and the
 * text EmailJS answers with, so the browser SDK (and the site's error mapping) cannot tell the
 * embedded API from the hosted one. `toEmailJsError` turns anything thrown into one.
 */

/** The texts EmailJS answers with, by cause. */
export const EMAILJS_TEXTS = {
  userIdRequired: 'The user_id parameter is required',
  serviceIdRequired: 'The service_id parameter is required',
  templateIdRequired: 'The template_id parameter is required',
  publicKeyInvalid:
    'The Public Key is invalid. To find this ID, visit https://dashboard.emailjs.com/admin/account',
  serviceIdInvalid:
    'The service ID is invalid. To find this ID, visit https://dashboard.emailjs.com/admin',
  templateIdNotFound:
    'The template ID not found. To find this ID, visit https://dashboard.emailjs.com/admin/templates',
  variablesTooLarge: 'Variables size limit. The maximum allowed variables size is 50Kb',
  tooManyRequests: 'Too Many Requests',
  forbiddenOrigin: 'Forbidden: this origin may not send through this mail API',
} as const

/** A refusal with EmailJS's status and text. */
export class EmailJsError extends Error {
  constructor(
    readonly status: number,
    text: string,
    options?: { cause?: unknown },
  ) {
    super(text, options)
    this.name = 'EmailJsError'
  }
}

/** Any thrown value as an `EmailJsError`: refusals keep their status, the rest become 500. */
export function toEmailJsError(error: unknown): EmailJsError {
  if (error instanceof EmailJsError) return error
  return new EmailJsError(500, 'Internal Server Error', { cause: error })
}
