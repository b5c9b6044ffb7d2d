// A worker's scripts fetched side by side. Turbopack starts a worker with a small bootstrap whose
// URL lists the worker's chunks (its `params`), and the bootstrap loads them with one
// `importScripts` call, which fetches them one after another: on a phone's network, a round trip
// each. The render worker has nine (1.3 s of waiting on slow 4G, measured with six scripts of 1 KB:
// 1,262 ms one after another, 139 ms when the page had asked for them first). So the page asks
// for all of them as the worker starts; the worker's `importScripts` then finds each in the HTTP
// cache (the chunks are served immutable) or joins its download. Written here because no library
// knows a bundler's worker bootstrap; with any other worker URL it does nothing.

import { fetchAhead } from './fetch-ahead'

/** The scripts a Turbopack worker's URL names (its `params`), as its bootstrap resolves them. */
export function workerScripts(url: string | URL, origin: string): string[] {
  let parsed: URL
  try {
    parsed = new URL(url, origin)
  } catch {
    return []
  }
  const hash = parsed.hash.startsWith('#params=') ? decodeURIComponent(parsed.hash.slice(8)) : null
  const params = parsed.searchParams.get('params') ?? hash
  if (!params) return []
  try {
    const list = (JSON.parse(params) as unknown[])[0]
    if (!Array.isArray(list)) return []
    return list
      .filter((entry): entry is string => typeof entry === 'string')
      .map((entry) => new URL(entry, origin))
      .filter((entry) => entry.origin === origin)
      .map((entry) => entry.href)
  } catch {
    return []
  }
}

/**
 * Runs `create` (a `new Worker(new URL(…, import.meta.url))`, which the bundler rewrites into its
 * bootstrap's URL) and fetches the scripts that URL names, all at once.
 */
export function startWorker(create: () => Worker): Worker {
  const Native = globalThis.Worker
  let asked: unknown
  // Only for the duration of `create`: the URL the bundler's code hands the constructor.
  globalThis.Worker = new Proxy(Native, {
    construct(target, args: ConstructorParameters<typeof Worker>, newTarget) {
      asked = args[0]
      return Reflect.construct(target, args, newTarget) as Worker
    },
  })
  try {
    return create()
  } finally {
    globalThis.Worker = Native
    // One request a task: seven in one task held the page's thread 60-80 ms at 4× CPU (traced:
    // each `fetch` call a few milliseconds), and the worker asks for none of them before its
    // bootstrap has come over the network.
    if (typeof asked === 'string' || asked instanceof URL)
      for (const script of workerScripts(asked, location.origin))
        setTimeout(() => void fetchAhead(script))
  }
}
