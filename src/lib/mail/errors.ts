/**
 * Every way sending an e-mail through `@emailjs/browser` can fail, mapped in one place. The SDK
 * throws plain strings for missing keys, rejects with fetch's `TypeError` when the network fails,
 * and rejects `{ status, text }` for every answer that is not 2xx, including the ones it makes up
 * itself (403 block list, 429 throttle, 451 headless).
 */

/** What went wrong, in the terms the visitor is told about. */
export type MailErrorKind =
  /** The network failed: retry. */
  | 'network'
  /** 5xx: the service is down: retry. */
  | 'unavailable'
  /** 429: too many messages for now: retry later. */
  | 'rate_limited'
  /** 400 or 413: the service refused this message. */
  | 'invalid'
  /** 403: the address is on the block list, or the account refuses this origin or caller. */
  | 'blocked'
  /** 451: the SDK refuses headless browsers. */
  | 'headless'
  /** Missing ids in the SDK, 412 (the account's mail service is broken), or any other answer. */
  | 'misconfigured'

/** A failed send, typed. */
export class MailError extends Error {
  constructor(
    readonly kind: MailErrorKind,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'MailError'
  }

  /** True when the message stays queued and is sent again later. */
  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'unavailable' || this.kind === 'rate_limited'
  }
}

function kindOfStatus(status: number): MailErrorKind {
  if (status === 0) return 'network'
  if (status === 400 || status === 413) return 'invalid'
  if (status === 403) return 'blocked'
  if (status === 429) return 'rate_limited'
  if (status === 451) return 'headless'
  if (status >= 500) return 'unavailable'
  return 'misconfigured'
}

/** Turns anything the SDK throws or rejects with into a `MailError`. */
export function toMailError(error: unknown): MailError {
  if (error instanceof MailError) return error
  if (typeof error === 'string') return new MailError('misconfigured', undefined, error)
  if (error instanceof TypeError)
    return new MailError('network', undefined, error.message, { cause: error })
  if (error && typeof error === 'object' && 'status' in error) {
    const { status, text } = error as { status: unknown; text?: unknown }
    if (typeof status === 'number')
      return new MailError(kindOfStatus(status), status, String(text ?? ''), { cause: error })
  }
  if (error instanceof Error && error.name === 'AbortError')
    return new MailError('network', undefined, error.message, { cause: error })
  return new MailError('misconfigured', undefined, String(error), { cause: error })
}
