import type { Context, MiddlewareHandler } from 'hono'

/**
 * Authentication and the request limit shared by the write stand-ins. Prismic's write APIs take
 * the write token as `Authorization: Bearer <token>` and the repository in a `repository` header
 * (Asset API reference, "Headers"; Migration API reference; the official clients send both:
 * `@prismicio/client` WriteClient#request, `@prismicio/custom-types-client` CustomTypesClient#fetch).
 * Each API words its refusals its own way, so each passes its own `refuse`.
 */

export type Refusal = 'missing-repository' | 'missing-token' | 'wrong-token' | 'rate-limited'

/** Builds one API's answer to a refused request. */
export type Refuse = (c: Context, why: Refusal, message: string) => Response

export type AuthOptions = {
  /** The only token accepted; any non-empty token when unset. */
  writeToken?: string
  refuse: Refuse
}

/** Checks the `repository` and `Authorization: Bearer` headers before any handler runs. */
export function requireWriteToken({ writeToken, refuse }: AuthOptions): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.header('repository'))
      return refuse(c, 'missing-repository', 'The "repository" header is required.')
    const match = c.req.header('authorization')?.match(/^Bearer\s+(.+)$/i)
    if (!match) return refuse(c, 'missing-token', 'Unauthorized')
    if (writeToken !== undefined && match[1] !== writeToken)
      return refuse(c, 'wrong-token', 'User is not authorized to access this resource')
    await next()
  }
}

/**
 * "Requests are limited to one per second" (Migration API and Asset API references, "Limits"). We
 * count requests that carry a body (the writes the official client queues 1,500 ms apart), with a
 * 50 ms allowance for timer jitter; reads are not limited (Facet's choice: the references do not
 * say, and the client does not queue them). A refused request gets 429 with `Retry-After: 1`,
 * which the official client honours before it retries (`request()` in @prismicio/client).
 */
export function limitWrites(refuse: Refuse, intervalMs = 1000): MiddlewareHandler {
  let last = -Infinity
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const now = Date.now()
    if (now - last < intervalMs - 50) {
      const response = refuse(c, 'rate-limited', 'Too many requests')
      response.headers.set('Retry-After', String(Math.ceil(intervalMs / 1000)))
      return response
    }
    last = now
    await next()
  }
}
