// Model files fetched before the renderer has its canvas (a `warm` message, protocol.ts), kept
// here until the model's loader asks for them: the media service answers `cache-control:
// no-cache`, so a second fetch of the same URL would be a round trip again, and a variant not yet
// made would be waited for twice. Each file is taken once; its loader caches the parsed model.

const fetched = new Map<string, Promise<ArrayBuffer>>()

/**
 * Starts fetching `url` as three's FileLoader would (same-origin credentials), and returns its
 * bytes to come; null when it was asked for already.
 */
export function prefetchModel(url: string): Promise<ArrayBuffer> | null {
  if (fetched.has(url)) return null
  const bytes = fetch(url, { credentials: 'same-origin' }).then((response) => {
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    return response.arrayBuffer()
  })
  // A failed prefetch is not an error of its own: the loader fetches again and reports that one.
  bytes.catch(() => {})
  fetched.set(url, bytes)
  return bytes
}

/** The bytes prefetched for `url`, or null when none were asked for; each is given out once. */
export function takePrefetched(url: string): Promise<ArrayBuffer> | null {
  const bytes = fetched.get(url) ?? null
  fetched.delete(url)
  return bytes
}
