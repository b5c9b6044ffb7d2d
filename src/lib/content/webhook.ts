import { createHash, timingSafeEqual } from 'node:crypto'
import { readAtMost } from '@/lib/read-at-most'

/** The largest webhook body accepted; Prismic's are well under 10 KB. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024

/** Why a webhook was refused: an HTTP status and a sentence. */
export class WebhookError extends Error {
  constructor(
    readonly status: 400 | 401 | 413,
    message: string,
  ) {
    super(message)
    this.name = 'WebhookError'
  }
}

/** Reads a request body as text, refusing (413) past `limit` bytes whatever the headers claim. */
export async function readBody(request: Request, limit = WEBHOOK_BODY_LIMIT): Promise<string> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit)
    throw new WebhookError(413, `The body is larger than ${limit} bytes.`)
  if (!request.body) return ''
  const bytes = await readAtMost(
    request.body,
    limit,
    () => new WebhookError(413, `The body is larger than ${limit} bytes.`),
  )
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}

/**
 * Compares a given secret with the expected one in constant time: both are hashed first, so the
 * buffers have equal length and the comparison time says nothing about either.
 */
export function secretMatches(given: unknown, expected: string | undefined): boolean {
  if (!expected || typeof given !== 'string') return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/** Checks a Prismic webhook: its JSON body's `secret` must equal `expected`. */
export async function verifyWebhook(request: Request, expected: string | undefined) {
  const text = await readBody(request)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new WebhookError(400, 'The body is not JSON.')
  }
  const secret =
    body && typeof body === 'object' ? (body as { secret?: unknown }).secret : undefined
  if (!secretMatches(secret, expected))
    throw new WebhookError(
      401,
      expected ? 'The webhook secret is wrong or missing.' : 'PRISMIC_WEBHOOK_SECRET is not set.',
    )
  return body as { type?: string; secret: string }
}
