import { mkdirSync, readdirSync, statSync } from 'node:fs'
import { readFile, rename, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** Variants by key, made on a miss. */
export type VariantCache = {
  /** The bytes under `key`, made by `make` on a miss; one `make` at a time per key. */
  get: (key: string, make: () => Promise<Buffer>) => Promise<Buffer>
  /** How many times `make` ran (each variant made once unless evicted), and the bytes held. */
  stats: () => { made: number; bytes: number; entries: number }
}

/** Options of the disk cache. */
export type VariantCacheOptions = { dir: string; maxBytes: number }

/**
 * Variants kept on disk, at most `maxBytes` of them: the least recently used go first. The index
 * lives in memory (a Map keeps insertion order; a hit moves its key to the end) and is rebuilt
 * from the folder at start, oldest file first, so a restart keeps the cache. Concurrent requests
 * for a key that is being made share one making (single flight).
 *
 * Hand-written: the LRU packages on npm bound memory, not files, and the disk caches
 * (cacache and kin) have no size bound.
 */
export function createVariantCache({ dir, maxBytes }: VariantCacheOptions): VariantCache {
  mkdirSync(dir, { recursive: true })
  const index = new Map<string, number>()
  let bytes = 0
  let made = 0
  for (const { name, size } of existingFiles(dir)) {
    index.set(name, size)
    bytes += size
  }
  const inFlight = new Map<string, Promise<Buffer>>()

  const evict = async () => {
    for (const [key, size] of index) {
      if (bytes <= maxBytes) break
      index.delete(key)
      bytes -= size
      await unlink(path.join(dir, key)).catch(() => undefined)
    }
  }

  const store = async (key: string, data: Buffer) => {
    // Written whole, then renamed: a reader never sees half a file.
    const tmp = path.join(dir, `.${key}.${process.pid}.tmp`)
    await writeFile(tmp, data)
    await rename(tmp, path.join(dir, key))
    index.set(key, data.length)
    bytes += data.length
    await evict()
  }

  const read = async (key: string): Promise<Buffer | undefined> => {
    const size = index.get(key)
    if (size === undefined) return undefined
    try {
      const data = await readFile(path.join(dir, key))
      index.delete(key)
      index.set(key, size)
      return data
    } catch {
      // Removed behind our back (another process sharing the folder evicted it): make it again.
      index.delete(key)
      bytes -= size
      return undefined
    }
  }

  return {
    get: (key, make) => {
      const pending = inFlight.get(key)
      if (pending) return pending
      const job = (async () => {
        const cached = await read(key)
        if (cached) return cached
        made += 1
        const data = await make()
        // A cache that cannot write (disk full, read-only) still answers.
        await store(key, data).catch((error) => console.error('media cache:', error))
        return data
      })().finally(() => inFlight.delete(key))
      inFlight.set(key, job)
      return job
    },
    stats: () => ({ made, bytes, entries: index.size }),
  }
}

function existingFiles(dir: string): { name: string; size: number }[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .map((name) => ({ name, stat: statSync(path.join(dir, name)) }))
    .filter((f) => f.stat.isFile())
    .sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs)
    .map(({ name, stat }) => ({ name, size: stat.size }))
}
