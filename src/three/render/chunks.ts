// The renderer's code that only some pages need (a scene kind, the decoders' loaders), each a
// chunk of its own, imported once and fetched side by side.
//
// In a worker, Turbopack's runtime loads each file of a dynamic import with `importScripts`, one
// file after another, and `importScripts` holds the worker until its file is here: on a phone's
// network, a round trip for each file (the model scenes are several), with nothing else done
// meanwhile. `importSideBySide` notes the files an import asks for instead, fetches them all at
// once, and hands them to `importScripts` once they are in the HTTP cache (the chunks are served
// immutable), as the runtime would have: the worker goes on drawing and fetching while they come.
// Written here because no library knows a bundler's worker runtime (worker-scripts.ts does the
// same for the worker's first files, from the page). Where the runtime is not the one expected
// (no `TURBOPACK_NEXT_CHUNK_URLS`), or on the page's thread (script elements, fetched side by side
// already), the import runs as it is.

import { fetchAhead } from '../fetch-ahead'

type RuntimeScope = {
  importScripts?: (...urls: string[]) => void
  /** The runtime's list of files being loaded, each pushed before its `importScripts`. */
  TURBOPACK_NEXT_CHUNK_URLS?: string[]
}

/** `load()` (a dynamic import), its files fetched side by side in a worker (see above). */
export function importSideBySide<T>(load: () => Promise<T>): Promise<T> {
  const scope = globalThis as RuntimeScope
  const runScripts = scope.importScripts
  const pending = scope.TURBOPACK_NEXT_CHUNK_URLS
  if (typeof runScripts !== 'function' || !Array.isArray(pending)) return load()
  const asked: string[] = []
  scope.importScripts = (...urls: string[]) => {
    asked.push(...urls)
    // The runtime pushed each file before asking for it; it is pushed again when it is loaded.
    pending.splice(pending.length - urls.length, urls.length)
  }
  let loaded: Promise<T>
  try {
    loaded = load()
  } finally {
    scope.importScripts = runScripts
  }
  if (!asked.length) return loaded
  // A file not fetched is fetched again by `importScripts`, which throws if it cannot.
  const failed = Promise.all(asked.map(fetchAhead)).then(() => {
    for (const url of asked) {
      pending.push(url)
      try {
        runScripts.call(scope, url)
      } catch (error) {
        pending.pop()
        throw new Error(`the 3D code ${url} could not be loaded`, { cause: error })
      }
    }
    return new Promise<never>(() => {})
  })
  return Promise.race([loaded, failed])
}

/**
 * A chunk imported once, when first asked for (`load`), its files side by side; `here` once it
 * has come. A failed import is tried again by the next caller.
 */
export function lazyChunk<T>(importChunk: () => Promise<T>) {
  let chunk: Promise<T> | null = null
  const state = {
    here: false,
    load(): Promise<T> {
      chunk ??= importSideBySide(importChunk).then(
        (loaded) => {
          state.here = true
          return loaded
        },
        (error: unknown) => {
          chunk = null
          throw error
        },
      )
      return chunk
    },
    /** `load`, its failure left for the chunk's user to meet and report. */
    start() {
      state.load().catch(() => {})
    },
  }
  return state
}
