/**
 * The embedded mail API's errors. Every refusal is an `EmailJsError` carrying the status and the
 * text EmailJS answers with, so the SDKs (and the site's error mapping) cannot tell the embedded
 * API from the hosted one. `toEmailJsError` turns anything thrown into one.
 *
 * Sources, per text (docs/mail-api.md lists them with each status):
 * - EmailJS's REST docs (https://www.emailjs.com/docs/rest-api/send/) quote `user_id` required.
 * - The other texts are EmailJS's answers as its users quote them word for word in bug reports
 *   and troubleshooting notes (the search tool's code and issue corpora), e.g.
 *   emailjs-com/emailjs-nodejs#1 and #4 for the non-browser refusal.
 * - Texts marked "Facet's own" have no EmailJS source; they are chosen here and say so.
 */

/** The texts the mail API answers with, by cause. */
export const EMAILJS_TEXTS = {
  /** 400. EmailJS's REST docs, "Failure status". */
  userIdRequired: 'The user_id parameter is required',
  /** 400. Same wording as `user_id`, as EmailJS's users quote it. */
  serviceIdRequired: 'The service_id parameter is required',
  /** 400. Same wording as `user_id`, as EmailJS's users quote it. */
  templateIdRequired: 'The template_id parameter is required',
  /** 400. Quoted in many reports ("The Public Key is invalid. To find this ID, …"). */
  publicKeyInvalid:
    'The Public Key is invalid. To find this ID, visit https://dashboard.emailjs.com/admin/account',
  /** 400. Quoted in many reports ("The service ID not found. To find this ID, …"). */
  serviceIdNotFound:
    'The service ID not found. To find this ID, visit https://dashboard.emailjs.com/admin',
  /** 400. Quoted in many reports ("The template ID not found. To find this ID, …"). */
  templateIdNotFound:
    'The template ID not found. To find this ID, visit https://dashboard.emailjs.com/admin/templates',
  /** 413. The text is quoted in reports; the status is Facet's own (no report quotes it). */
  variablesTooLarge: 'Variables size limit. The maximum allowed variables size is 50Kb',
  /**
   * 403. emailjs-com/emailjs-nodejs#1 and #4 (`{ status: 403, text: … }`); the SDK's README
   * says API requests are disabled for non-browser applications until Account > Security allows
   * them.
   */
  nonBrowserDisabled: 'API calls are disabled for non-browser applications',
  /**
   * 403 when the account requires its private key ("Use Private Key") and the request has no
   * `accessToken`: the status and text as users quote EmailJS's answer.
   */
  privateKeyMissing: 'API calls in strict mode, but no private key was passed',
  /**
   * 403 for an `accessToken` that is not the account's private key. One report quotes this text
   * from EmailJS; it is the best evidence found, not a documented answer.
   */
  privateKeyWrong: 'The private key is wrong',
  /**
   * 429. EmailJS documents the limit (1 request per second) but not its answer's text: this is
   * the text its own SDKs use for their 429 (`limitRateError`), so a client sees one wording.
   */
  tooManyRequests: 'Too Many Requests',
  /**
   * 403 for a browser on an origin the account does not allow. EmailJS has an origin allowlist
   * (its FAQ, "Does EmailJS expose my account to spam?"), and reports tie it to a 403; no report
   * quotes the text, so this one is Facet's own.
   */
  forbiddenOrigin: 'Forbidden: this origin may not send through this mail API',
} as const

/** A refusal with its status, text and any extra headers (`Retry-After`). */
export class EmailJsError extends Error {
  readonly headers: Record<string, string>

  constructor(
    readonly status: number,
    text: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(text, options)
    this.name = 'EmailJsError'
    this.headers = options?.headers ?? {}
  }
}

/** Any thrown value as an `EmailJsError`: refusals keep their status, the rest become 500. */
export function toEmailJsError(error: unknown): EmailJsError {
  if (error instanceof EmailJsError) return error
  return new EmailJsError(500, 'Internal Server Error', { cause: error })
}
