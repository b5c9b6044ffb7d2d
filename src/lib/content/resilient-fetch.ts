import { normalizeContent } from '@/lib/content/normalize'
import { sanitizeContent } from '@/lib/content/sanitize'

/** The `fetch` the Prismic client takes. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export type ResilientFetchOptions = {
  /** Milliseconds one attempt may take before it is aborted. */
  timeoutMs?: number
  /** Retries after the first attempt, for timeouts, network errors, 429 and 5xx. */
  retries?: number
  /** The longest wait between attempts, whatever `Retry-After` asks. */
  maxDelayMs?: number
  /** The first backoff delay (doubled on each retry) when the service names none. */
  baseDelayMs?: number
}

export const CONTENT_FETCH_DEFAULTS: Required<ResilientFetchOptions> = {
  timeoutMs: 10_000,
  retries: 2,
  maxDelayMs: 5_000,
  baseDelayMs: 250,
}

/** A content fetch that failed for good: its message names the request and what to do. */
export class ContentFetchError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'ContentFetchError'
  }
}

/**
 * What a Content API URL asks for, readable in an error: the path and the decoded query
 * (`q=[[at(my.page.uid,"about")]]` names the document), with the access token left out.
 */
export function describeContentRequest(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.searchParams.delete('access_token')
    const query = [...parsed.searchParams.entries()].map(([k, v]) => `${k}=${v}`).join('&')
    return `${parsed.pathname}${query ? `?${query}` : ''}`
  } catch {
    return url
  }
}

function delay(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), capped; undefined when absent. */
function retryAfterMs(response: Response, cap: number): number | undefined {
  const header = response.headers.get('retry-after')
  if (!header) return undefined
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), cap) : undefined
}

async function apiMessage(response: Response): Promise<string> {
  try {
    const text = await response.clone().text()
    try {
      const json = JSON.parse(text) as { message?: unknown; error?: unknown }
      const message = json.message ?? json.error
      if (typeof message === 'string') return message
    } catch {
      // not JSON
    }
    return text.slice(0, 200)
  } catch {
    return ''
  }
}

/**
 * Wraps the Prismic client's `fetch`:
 *
 * - every attempt has a timeout (`AbortSignal.timeout`, combined with the caller's signal);
 * - timeouts, network errors, 5xx and 429 are retried at most `retries` times, after the delay
 *   the service names (`Retry-After`, capped at `maxDelayMs`) or an exponential backoff. The
 *   client's own 429 retry loops forever, so a 429 never reaches it: once the retries are spent
 *   the wrapper throws;
 * - 401/403 throw a `ContentFetchError` naming `PRISMIC_ACCESS_TOKEN`; 400 throws one naming the
 *   query (it is a bug in the site's query); any other final failure names the request, so a
 *   build that cannot fetch a document fails with a message saying which;
 * - 404 and 410 go back to the client unchanged: it turns 404 into a not-found page and
 *   recovers an unknown (404 `api_notfound_error`) or expired (410) ref through the master ref;
 * - successful JSON answers pass through `sanitizeContent` (dangerous links and embed HTML
 *   neutralised) and `normalizeContent` (every field in its model's shape) before the client,
 *   and so any page, sees them.
 */
export function resilientFetch(inner: FetchLike, options: ResilientFetchOptions = {}): FetchLike {
  const { timeoutMs, retries, maxDelayMs, baseDelayMs } = { ...CONTENT_FETCH_DEFAULTS, ...options }
  return async (input, init) => {
    const what = describeContentRequest(input)
    let lastProblem = ''
    for (let attempt = 0; attempt <= retries; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
      let response: Response
      let wait = baseDelayMs * 2 ** attempt
      try {
        response = await inner(input, { ...init, signal })
      } catch (error) {
        if (init?.signal?.aborted) throw error
        lastProblem = timeout.aborted
          ? `no answer within ${timeoutMs} ms`
          : `network error: ${error instanceof Error ? error.message : String(error)}`
        if (attempt < retries) {
          await delay(Math.min(wait, maxDelayMs), init?.signal)
          continue
        }
        throw new ContentFetchError(
          `Content API request failed after ${attempt + 1} attempts (${lastProblem}): ${what}`,
          input,
          undefined,
          { cause: error },
        )
      }
      const { status } = response
      if (status === 429 || status >= 500) {
        wait = retryAfterMs(response, maxDelayMs) ?? wait
        lastProblem = `HTTP ${status}${status === 429 ? ' (rate limited)' : ''}: ${await apiMessage(response)}`
        if (attempt < retries) {
          await response.body?.cancel().catch(() => {})
          await delay(Math.min(wait, maxDelayMs), init?.signal)
          continue
        }
        throw new ContentFetchError(
          `Content API request failed after ${attempt + 1} attempts (${lastProblem}): ${what}`,
          input,
          status,
        )
      }
      if (status === 401 || status === 403)
        throw new ContentFetchError(
          `The content API refused access (HTTP ${status}: ${await apiMessage(response)}). ` +
            `Set PRISMIC_ACCESS_TOKEN to a valid access token for the repository. Request: ${what}`,
          input,
          status,
        )
      if (status === 400)
        throw new ContentFetchError(
          `Bug: the content API rejected the site's query (HTTP 400: ${await apiMessage(response)}). ` +
            `Query: ${what}`,
          input,
          status,
        )
      if (!response.ok) return response
      return sanitized(response)
    }
    // Unreachable: the loop returns or throws.
    throw new ContentFetchError(`Content API request failed (${lastProblem}): ${what}`, input)
  }
}

async function sanitized(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return response
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return new Response(text, { status: response.status, headers: response.headers })
  }
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  return new Response(JSON.stringify(normalizeContent(sanitizeContent(body))), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
