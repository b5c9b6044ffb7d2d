/**
 * The mail API's rate limit: a token bucket per client address. EmailJS documents "1 request per
 * second" for `/send` and `/send-form` (https://www.emailjs.com/docs/rest-api/send/) and says its
 * limits are IP-based (FAQ, "Does EmailJS expose my account to spam?"), so the default is one
 * request per second per address, with no burst. Written by hand: it is ten lines, and the
 * libraries for it bring stores and middleware the API does not need.
 */

/** What taking a request from a client's bucket gave. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

type Bucket = { tokens: number; at: number }

/** Buckets idle longer than this are forgotten once the map grows large. */
const IDLE_MS = 60_000
const MAX_BUCKETS = 10_000

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  /** A client may use one second's worth at once, and never less than one request. */
  private readonly burst: number

  /** `perSecond`: requests each client may make per second. */
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(1, perSecond)
  }

  /** Takes one request from `key`'s bucket, or says how long until one is there. */
  take(key: string): RateDecision {
    const now = this.now()
    const bucket = this.refill(key, now)
    if (bucket.tokens < 1) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)),
      }
    }
    bucket.tokens -= 1
    this.forgetIdle(now)
    return { allowed: true }
  }

  private refill(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now }
    bucket.tokens = Math.min(
      this.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
    )
    bucket.at = now
    this.buckets.set(key, bucket)
    return bucket
  }

  private forgetIdle(now: number): void {
    if (this.buckets.size <= MAX_BUCKETS) return
    for (const [key, bucket] of this.buckets)
      if (now - bucket.at > IDLE_MS) this.buckets.delete(key)
  }
}
