// Model files fetched before the renderer has its canvas (a `warm` message, protocol.ts), kept
// here until the model's loader asks for them: the media service answers `cache-control:
// no-cache`, so a second fetch of the same URL would be a round trip again, and a variant not yet
// made would be waited for twice. Each file is taken once; its loader caches the parsed model.
//
// Only files up to PREFETCH_MAX_BYTES: the warm-up runs before the visitor has engaged, and a
// visitor who never scrolls to the slot pays for what it fetched. A larger file (a scan's variant
// of 2 MB, say) is given up as soon as its size is known, and fetched when the visitor engages.

/**
 * What the warm-up fetches before the visitor engages, its model files and their decoders together
 * (renderer.tsx, `warm`): 512 KiB, about twice the renderer's own code (168 KB on the wire, and
 * 55 KB more for the model scenes), which the warm-up fetches too. Every sample model and the corpus's textured ones (about 180 KB) are
 * under it; a scan's low variant is not. Also the largest model file a prefetch takes.
 */
export const PREFETCH_MAX_BYTES = 512 * 1024

import { readAtMost } from '@/lib/read-at-most'

const fetched = new Map<string, Promise<ArrayBuffer>>()
/** Files given up as too large: a later `warm` naming one again fetches nothing. */
const tooLarge = new Set<string>()

/** Thrown (and kept to itself) when a file is larger than a prefetch may be. */
class TooLargeToPrefetch extends Error {}

/**
 * `url`'s bytes, fetched as three's FileLoader would (same-origin credentials), at most `maxBytes`
 * of them: a larger file (by its `content-length`, else as it streams in) is given up at once, and
 * the promise rejects with `TooLargeToPrefetch`. Also the AR button's warm-up of its `ar` model
 * (src/components/ArLink.tsx), which only fills the HTTP cache.
 */
export function fetchAtMost(url: string, maxBytes = PREFETCH_MAX_BYTES): Promise<ArrayBuffer> {
  const abort = new AbortController()
  return fetch(url, { credentials: 'same-origin', signal: abort.signal }).then(async (response) => {
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    const declared = Number(response.headers.get('content-length'))
    if (declared > maxBytes) {
      abort.abort()
      throw new TooLargeToPrefetch(url)
    }
    if (!response.body) return response.arrayBuffer()
    const body = await readAtMost(response.body, maxBytes, () => {
      abort.abort()
      return new TooLargeToPrefetch(url)
    })
    return body.buffer as ArrayBuffer
  })
}

/**
 * Starts fetching `url` (`fetchAtMost`), and returns its bytes to come; null when it was asked for
 * already. A file over `maxBytes` is given up: its promise rejects, and `takePrefetched` no longer
 * has it, so the loader fetches it itself.
 */
export function prefetchModel(
  url: string,
  maxBytes = PREFETCH_MAX_BYTES,
): Promise<ArrayBuffer> | null {
  if (fetched.has(url) || tooLarge.has(url)) return null
  const bytes = fetchAtMost(url, maxBytes)
  // A failed prefetch is not an error of its own: the loader fetches again and reports that one.
  bytes.catch((error: unknown) => {
    if (!(error instanceof TooLargeToPrefetch)) return
    // Not asked for again by a later `warm`; the loader's own fetch is the next.
    tooLarge.add(url)
    if (fetched.get(url) === bytes) fetched.delete(url)
  })
  fetched.set(url, bytes)
  return bytes
}

/** The bytes prefetched for `url`, or null when none were asked for; each is given out once. */
export function takePrefetched(url: string): Promise<ArrayBuffer> | null {
  const bytes = fetched.get(url) ?? null
  fetched.delete(url)
  return bytes
}
