/**
 * The `fetch` handed to the official clients. It adds nothing to a request; it watches answers:
 * it says when the service rate-limits (429) and, because the write client retries a 429 for as
 * long as it gets one, gives up with a sentence after `maxRateLimited` in a row for one request.
 */

/** Thrown when a service keeps answering 429. */
export class RateLimitedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RateLimitedError'
  }
}

export type WatchedFetch = typeof fetch & {
  rateLimited: () => number
  /** The last answer of 400 or more (other than 429), e.g. `503 PUT https://…`. */
  lastFailure: () => string | undefined
}

export type WatchOptions = {
  /** 429s in a row for one request before giving up. */
  maxRateLimited?: number
  /** Retry a 429 here (for clients that do not). */
  retry429?: boolean
  /**
   * Sees every successful answer before the client does, e.g. to record a created document's
   * id the moment the service gives it.
   */
  onSuccess?: (request: string, response: Response) => Promise<void>
}

/** Wraps `fetch`, logging each 429 through `log`. */
export function watchedFetch(
  log: (line: string) => void,
  { maxRateLimited = 8, retry429 = false, onSuccess }: WatchOptions = {},
): WatchedFetch {
  let total = 0
  let failure: string | undefined
  const streak = new Map<string, number>()
  const run = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const key = `${init?.method ?? 'GET'} ${url}`
    for (;;) {
      const response = await fetch(input, init)
      if (response.status !== 429) {
        streak.delete(key)
        if (response.status >= 400) failure = `${response.status} ${key}`
        else if (onSuccess) await onSuccess(key, response.clone())
        return response
      }
      total += 1
      const count = (streak.get(key) ?? 0) + 1
      streak.set(key, count)
      const wait = Number(response.headers.get('retry-after')) || 1.5
      if (count > maxRateLimited) {
        streak.delete(key)
        throw new RateLimitedError(
          `the service answered 429 Too Many Requests ${count} times in a row to ${key}; try again later`,
        )
      }
      log(`  rate limited (429) by ${new URL(url).host}; waiting ${wait} s as it asks`)
      // The write client waits and retries by itself; the Custom Types client does not.
      if (!retry429) return response
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
    }
  }
  return Object.assign(run, {
    rateLimited: () => total,
    lastFailure: () => failure,
  }) as WatchedFetch
}
