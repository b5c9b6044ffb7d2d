import { afterEach, describe, expect, it, vi } from 'vitest'
import { importSideBySide, lazyChunk } from '../../src/three/render/chunks'

// In the render worker, a dynamic import's files are fetched side by side, then handed to
// `importScripts` from the HTTP cache: Turbopack's runtime would load them one after another,
// each holding the worker until it is here.

/**
 * A stand-in for Turbopack's worker runtime as it loads a dynamic import: for each file, it
 * pushes the URL on `TURBOPACK_NEXT_CHUNK_URLS` and calls `importScripts`; a file, once run, pops
 * the last URL as its own and registers under it; the import resolves once every file has.
 */
function runtime(files: string[]) {
  const registered: string[] = []
  const pending: string[] = []
  const events: string[] = []
  const waiting = new Map<string, () => void>()
  const importScripts = vi.fn((...urls: string[]) => {
    for (const url of urls) {
      events.push(`run ${url}`)
      if (url.includes('missing')) throw new Error('NetworkError')
      const own = pending.pop()!
      registered.push(own)
      waiting.get(own)?.()
    }
  })
  vi.stubGlobal('importScripts', importScripts)
  vi.stubGlobal('TURBOPACK_NEXT_CHUNK_URLS', pending)
  vi.stubGlobal('fetch', (url: string) => {
    events.push(`fetch ${url}`)
    return Promise.resolve(new Response(url.includes('offline') ? null : 'x'))
  })
  const load = () =>
    Promise.all(
      files.map(
        (url) =>
          new Promise<void>((resolve, reject) => {
            waiting.set(url, resolve)
            pending.push(url)
            try {
              ;(globalThis as unknown as { importScripts: (url: string) => void }).importScripts(
                url,
              )
            } catch (error) {
              reject(error)
            }
          }),
      ),
    ).then(() => ({ loaded: files.length }))
  return { load, registered, pending, events, importScripts }
}

afterEach(() => vi.unstubAllGlobals())

describe('importSideBySide', () => {
  it('fetches every file of the import at once, then runs each under its own URL', async () => {
    const files = [
      '/_next/static/chunks/a.js',
      '/_next/static/chunks/b.js',
      '/_next/static/chunks/c.js',
    ]
    const fake = runtime(files)
    await expect(importSideBySide(fake.load)).resolves.toEqual({ loaded: 3 })
    expect(fake.events).toEqual([
      ...files.map((url) => `fetch ${url}`),
      ...files.map((url) => `run ${url}`),
    ])
    // Each file took its own URL from the runtime's list, which is left empty.
    expect(fake.registered).toEqual(files)
    expect(fake.pending).toEqual([])
    // The runtime's `importScripts` is the real one again.
    expect((globalThis as unknown as { importScripts: unknown }).importScripts).toBe(
      fake.importScripts,
    )
  })

  it('a file that cannot be loaded rejects the import, naming it', async () => {
    const fake = runtime(['/_next/static/chunks/a.js', '/_next/static/chunks/missing.js'])
    await expect(importSideBySide(fake.load)).rejects.toThrow(
      'the 3D code /_next/static/chunks/missing.js could not be loaded',
    )
    expect(fake.pending).toEqual([])
  })

  it('runs the import as it is where there is no worker runtime', async () => {
    const load = vi.fn(() => Promise.resolve('module'))
    await expect(importSideBySide(load)).resolves.toBe('module')
    expect(load).toHaveBeenCalledOnce()
  })
})

describe('lazyChunk', () => {
  it('imports once, says when the chunk is here, and tries again after a failure', async () => {
    let fail = true
    const importChunk = vi.fn(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve(7),
    )
    const chunk = lazyChunk(importChunk)
    chunk.start()
    await expect(chunk.load()).rejects.toThrow('offline')
    expect(chunk.here).toBe(false)
    fail = false
    await expect(chunk.load()).resolves.toBe(7)
    await expect(chunk.load()).resolves.toBe(7)
    expect(chunk.here).toBe(true)
    expect(importChunk).toHaveBeenCalledTimes(2)
  })
})
