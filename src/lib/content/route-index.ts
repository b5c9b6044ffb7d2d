import * as prismic from '@prismicio/client'

/**
 * Which paths of the site exist, so that the proxy (src/proxy.ts) can answer an unknown path
 * or uid with the localized 404 page before anything renders.
 *
 * Cost, per request: a lookup in a Set. The index is the `url` of every routable document, read
 * once (one paginated query over the repository, 100 documents per call) and again only when the
 * repository's master ref has changed, that is when content was published. The ref is checked
 * (one small call: the repository's root) at most every `recheckMs` in the background, and at
 * once, at most every `unknownRecheckMs`, when a path is not in the index, so that a document
 * published a moment ago is found before its visitor gets a 404.
 */

/** What the index knows: the repository's languages and every routable path. */
export type RouteIndex = { ref: string; langs: string[]; master: string; paths: Set<string> }

/** What the proxy does with a path. */
export type RouteVerdict = { found: true } | { found: false; lang: string }

/** How the index reads the repository: its master ref, and the index built at a ref. */
export type RouteIndexSource = {
  masterRef(): Promise<string>
  load(): Promise<RouteIndex>
}

/**
 * The routable paths of the repository: each routable document's `url`. `getAll` reads every
 * page of a query (default: the client's `dangerouslyGetAll`).
 */
export async function loadRouteIndex(
  client: prismic.Client,
  types: string[],
  getAll: (
    query: NonNullable<Parameters<prismic.Client['dangerouslyGetAll']>[0]>,
  ) => Promise<prismic.PrismicDocument[]> = (query) => client.dangerouslyGetAll(query),
): Promise<RouteIndex> {
  const repository = await client.getRepository()
  const ref = repository.refs.find((r) => r.isMasterRef)?.ref ?? ''
  const master =
    repository.languages.find((l) => l.is_master)?.id ?? repository.languages[0]?.id ?? 'en-us'
  const langs = [master, ...repository.languages.map((l) => l.id).filter((id) => id !== master)]
  const docs = await getAll({
    filters: [prismic.filter.any('document.type', types)],
    lang: '*',
    ref,
    // Only the `url` is needed: `fetch` leaves each document's fields behind (one per type is
    // named, as the API wants a list), which at 10,000 documents is most of the bytes.
    fetch: types.map((type) => `${type}.title`),
  })
  const paths = new Set<string>()
  for (const doc of docs) if (doc.url) paths.add(decoded(doc.url))
  return { ref, langs, master, paths }
}

/** A path as characters, so that an encoded request path and a document's URL compare. */
function decoded(pathname: string): string {
  try {
    return decodeURI(pathname)
  } catch {
    return pathname
  }
}

function normalize(pathname: string): string {
  const path = decoded(pathname)
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/**
 * The index, kept fresh as described above. `resolve(pathname)` says whether a path exists and,
 * when it does not, in which language to answer.
 */
export function createRouteIndex(
  source: RouteIndexSource,
  {
    recheckMs = 30_000,
    unknownRecheckMs = 1_000,
    now = Date.now,
  }: { recheckMs?: number; unknownRecheckMs?: number; now?: () => number } = {},
) {
  let index: RouteIndex | undefined
  let checkedAt = 0
  let pending: Promise<RouteIndex> | undefined

  function refresh(): Promise<RouteIndex> {
    pending ??= (async () => {
      try {
        const ref = index ? await source.masterRef() : undefined
        if (!index || ref !== index.ref) index = await source.load()
        return index
      } finally {
        // A failed check also waits its turn: the old index serves meanwhile.
        checkedAt = now()
        pending = undefined
      }
    })()
    return pending
  }

  function verdict(current: RouteIndex, pathname: string): RouteVerdict | undefined {
    const path = normalize(pathname)
    const [lang, ...rest] = path.split('/').filter(Boolean)
    if (!lang || !current.langs.includes(lang)) return { found: false, lang: current.master }
    // A language's root always renders (its home page, or its own 404).
    if (rest.length === 0 || current.paths.has(path)) return { found: true }
    return undefined
  }

  return {
    /** Loads the index now (the warm-up), unless it is loaded already. */
    async warm(): Promise<void> {
      if (!index) await refresh()
    },
    async resolve(pathname: string): Promise<RouteVerdict> {
      let current = index ?? (await refresh())
      if (now() - checkedAt >= recheckMs) refresh().catch(() => {})
      const known = verdict(current, pathname)
      if (known) return known
      if (now() - checkedAt >= unknownRecheckMs) current = await refresh()
      return verdict(current, pathname) ?? { found: false, lang: pathname.split('/')[1]! }
    },
  }
}
