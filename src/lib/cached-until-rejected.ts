/**
 * `load()` run once and its promise kept for every later call, unless it rejects: then the next
 * call runs it again. For code and storage loaded on demand, where a failure (a chunk fetched while
 * offline, storage blocked for a moment) must not stick for the rest of the visit.
 */
export function cachedUntilRejected<T>(load: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined
  return () =>
    (kept ??= load().catch((error: unknown) => {
      kept = undefined
      throw error
    }))
}
