import { readFileSync, existsSync, statSync, watch, type FSWatcher } from 'node:fs'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import { FilterParseError, parseQuery, type Filter, type FilterValue } from './filters'
import {
  compileFilter,
  FilterValueError,
  geoDistance,
  parseOrderings,
  sortDocuments,
  typeOfPath,
  valuesAt,
} from './query'
import {
  API_TOKEN,
  loadContent,
  MEDIA_TOKEN,
  type ContentStore,
  type Json,
  type JsonObject,
  type PrismicApiDocument,
  type StoredDocument,
} from './store'
import { resolveRoute, parseRoutes, type Route } from './routes'
import { applyGraphQuery, GraphQueryError, parseGraphQuery, type Selection } from './graphquery'
import { formatProblems, loadModels, validateContent } from './validate'
import { createWriteApp, type WriteApiOptions, type WriteApp } from './write'

/**
 * The embedded, Prismic-compatible Content API: a Web-standard `Request → Response` handler
 * (Hono) over a content folder. The same handler is mounted in the site under `/local/prismic`,
 * called in-process by the Prismic client at build time, and served standalone by `cli.ts`.
 */

export type ContentApiOptions = {
  /** The content folder (see docs/content.md). */
  contentDir: string
  /** The Slice Machine models (`customtypes/`, `src/slices/`) to validate documents against. */
  modelsDir?: string
  /** Where the API is mounted: `/local/prismic` in the site, `` standalone. */
  basePath?: string
  /** When set, every request must carry `access_token` with this value (401 otherwise). */
  accessToken?: string
  /** Requests per second before 429 with `Retry-After` (off when unset). */
  rateLimit?: number
  /** Seconds named in `Retry-After` when rate limited (default 1; fractions allowed, for tests). */
  retryAfter?: number
  /** Reload the folder when it changes, moving the master ref (development). */
  watch?: boolean
  /** Also serve the write stand-ins (Migration, Asset, Custom Types APIs) over the folder. */
  write?: WriteApiOptions
}

/** Thrown when the content folder is invalid; its message is the full report. */
export class ContentInvalidError extends Error {
  constructor(readonly report: string) {
    super(report)
    this.name = 'ContentInvalidError'
  }
}

const MAX_PAGE_SIZE = 100

export type ContentApi = {
  fetch: (request: Request) => Promise<Response>
  /** The current store (reloaded first when the folder changed). */
  store: () => ContentStore
  close: () => void
}

/** Creates the content API over `options.contentDir`. Throws `ContentInvalidError` for bad content. */
export function createContentApi(options: ContentApiOptions): ContentApi {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  let store = load(options)
  const expiredRefs = new Set<string>()
  let dirty = false
  let watcher: FSWatcher | undefined
  if (options.watch) {
    watcher = watch(path.resolve(options.contentDir), { recursive: true }, () => {
      dirty = true
    })
  }
  const current = (): ContentStore => {
    if (dirty) {
      dirty = false
      try {
        const next = load(options)
        if (next.ref !== store.ref) expiredRefs.add(store.ref)
        store = next
      } catch (error) {
        // Keep serving the last valid content; the report is printed for the editor.
        console.error(String((error as Error).message))
      }
    }
    return store
  }

  const limiter = options.rateLimit ? createLimiter(options.rateLimit) : undefined
  const app = new Hono()
  let write: WriteApp | undefined

  app.use('*', async (c, next) => {
    if (limiter && !limiter()) {
      return c.json({ message: 'Too many requests' }, 429, {
        'Retry-After': String(options.retryAfter ?? 1),
      })
    }
    await next()
    c.header('Access-Control-Allow-Origin', '*')
  })

  app.get(`${base}/api/v2`, (c) => {
    const s = current()
    if (options.accessToken && c.req.query('access_token') !== options.accessToken) {
      return c.json({ error: 'Invalid access token' }, 401)
    }
    const info = repositoryInfo(s, apiBase(c, base))
    // A writable repository's migration release is a ref of its own, as on Prismic.
    info.refs.push(...(write?.refs() ?? []))
    return c.json(info)
  })
  app.get(`${base}/api/v2/`, (c) => c.redirect(`${base}/api/v2${new URL(c.req.url).search}`, 301))

  app.get(`${base}/api/v2/documents/search`, (c) =>
    search(
      c,
      write?.storeFor(c.req.query('ref')) ?? current(),
      expiredRefs,
      apiBase(c, base),
      options,
    ),
  )

  app.get(`${base}/media/*`, (c) => {
    const rel = decodeURIComponent(new URL(c.req.url).pathname.slice(`${base}/media/`.length))
    const file = path.join(current().dir, 'media', rel)
    if (rel.includes('..') || !existsSync(file) || !statSync(file).isFile())
      return c.body(null, 404)
    return c.body(readFileSync(file), 200, {
      'Content-Type': contentType(file),
      'Cache-Control': 'public, max-age=31536000, immutable',
    })
  })

  if (options.write) {
    const changed = () => {
      dirty = true
    }
    const modelsDir = options.modelsDir ?? options.contentDir
    write = createWriteApp({ ...options.write, contentDir: options.contentDir, modelsDir, changed })
    app.route('/', write.app)
  }

  app.notFound((c) => c.body(null, 404))
  app.onError((error, c) => {
    console.error(error)
    return c.json({ type: 'api_internal_error', message: 'Internal error' }, 500)
  })

  return {
    fetch: async (request) => app.fetch(request),
    store: current,
    close: () => watcher?.close(),
  }
}

function load(options: ContentApiOptions): ContentStore {
  const store = loadContent(options.contentDir)
  const problems = [...store.problems, ...validateContent(store, options.modelsDir)]
  if (problems.length > 0) throw new ContentInvalidError(formatProblems(problems, store.dir))
  if (options.modelsDir) {
    // Prismic lists every custom type, with its label, documents or not; repository.json wins.
    for (const [id, { model }] of loadModels(options.modelsDir).customTypes)
      store.types[id] = store.repositoryTypes[id] ?? model.label ?? store.types[id] ?? id
  }
  return store
}

function createLimiter(perSecond: number): () => boolean {
  let windowStart = 0
  let count = 0
  return () => {
    const now = Date.now()
    if (now - windowStart >= 1000) {
      windowStart = now
      count = 0
    }
    count += 1
    return count <= perSecond
  }
}

function apiBase(c: Context, base: string): string {
  const url = new URL(c.req.url)
  return `${url.origin}${base}/api/v2`
}

/** The answer of `GET /api/v2`. */
export function repositoryInfo(store: ContentStore, apiUrl: string) {
  const string = (extra: object = {}) => ({ type: 'String', multiple: false, ...extra })
  return {
    refs: [{ id: 'master', ref: store.ref, label: 'Master', isMasterRef: true }],
    bookmarks: {},
    types: store.types,
    languages: store.languages,
    tags: store.tags,
    forms: {
      everything: {
        method: 'GET',
        enctype: 'application/x-www-form-urlencoded',
        action: `${apiUrl}/documents/search`,
        fields: {
          ref: string(),
          q: { type: 'String', multiple: true },
          lang: string(),
          page: { type: 'Integer', multiple: false, default: '1' },
          pageSize: { type: 'Integer', multiple: false, default: '20' },
          after: string(),
          fetch: string(),
          fetchLinks: string(),
          graphQuery: string(),
          orderings: string(),
          referer: string(),
          access_token: string(),
        },
      },
    },
    oauth_initiate: `${new URL(apiUrl).origin}/auth`,
    oauth_token: `${new URL(apiUrl).origin}/auth/token`,
    version: 'facet-local',
    integrationFieldsRef: null,
    license: 'All Rights Reserved',
    experiments: { draft: [], running: [] },
  }
}

function parsingError(c: Context, message: string, query = '', column = 0, status: 400 = 400) {
  return c.json(
    {
      type: 'parsing-error',
      message,
      pos: {
        line: 1,
        column,
        id: 0,
        location: query ? `${query.slice(0, column)}^${query.slice(column)}` : '',
      },
    },
    status,
  )
}

async function search(
  c: Context,
  store: ContentStore,
  expiredRefs: Set<string>,
  apiUrl: string,
  options: ContentApiOptions,
): Promise<Response> {
  const url = new URL(c.req.url)
  const params = url.searchParams
  if (options.accessToken && params.get('access_token') !== options.accessToken) {
    return c.json(
      { message: 'Invalid access token. Get a valid one from your repository settings.' },
      401,
    )
  }

  const ref = params.get('ref')
  if (!ref)
    return c.json({ type: 'api_validation_error', message: 'The ref parameter is required.' }, 400)
  if (ref !== store.ref) {
    if (expiredRefs.has(ref)) {
      return c.json(
        {
          type: 'api_validation_error',
          message: `The ref ${ref} has expired. Master ref is: ${store.ref}`,
        },
        410,
      )
    }
    return c.json(
      {
        type: 'api_notfound_error',
        message: `Ref not found. Ensure you have the correct ref and try again. Master ref is: ${store.ref}`,
      },
      404,
    )
  }

  const pageRaw = params.get('page') ?? '1'
  const sizeRaw = params.get('pageSize') ?? '20'
  const page = Number(pageRaw)
  const pageSize = Number(sizeRaw)
  if (!Number.isInteger(page) || page < 1)
    return parsingError(c, `page must be a whole number of 1 or more, got "${pageRaw}"`)
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return parsingError(c, `pageSize must be between 1 and ${MAX_PAGE_SIZE}, got "${sizeRaw}"`)
  }

  let filters: Filter[] = []
  for (const q of params.getAll('q')) {
    try {
      filters = filters.concat(parseQuery(q))
    } catch (error) {
      if (error instanceof FilterParseError)
        return parsingError(c, `${error.message} in ${q}`, q, error.column)
      throw error
    }
  }

  let matchers
  try {
    matchers = filters.map((f) => ({ filter: f, test: compileFilter(f, store) }))
  } catch (error) {
    if (error instanceof FilterValueError)
      return parsingError(c, `${error.message} in ${error.filter.source}`, error.filter.source)
    throw error
  }

  const lang = params.get('lang') ?? store.masterLang
  const types = new Set(filters.map((f) => typeOfPath(f.path)).filter((t): t is string => !!t))
  for (const f of filters) {
    if (f.name === 'at' && f.path === 'document.type' && typeof f.args[0] === 'string')
      types.add(f.args[0])
  }
  const orderingsParam = params.get('orderings')
  const orderings = orderingsParam ? parseOrderings(orderingsParam) : []
  const inFilter = filters.find((f) => f.name === 'in' && Array.isArray(f.args[0]))
  const near = filters.find((f) => f.name === 'geopoint.near')
  // `in` keeps the order of its values and `geopoint.near` puts the nearest first, unless
  // `orderings` says otherwise.
  const ownOrder = !orderingsParam && (inFilter ?? near)
  const indexed = lookup(store, filters)
  let pool: StoredDocument[]
  if (indexed) pool = indexed
  else {
    pool = candidates(store, types, lang)
    if (!ownOrder) {
      // Sorting once per candidate list and ordering, then filtering the sorted list (which
      // keeps its order), makes a filtered, ordered page cost one pass over the candidates.
      const key = `${[...types].sort().join(',')}|${lang}|${orderings.map((o) => `${o.path} ${o.desc}`).join(',')}`
      let sorted = store.sorted.get(key)
      if (!sorted) {
        // Bounded: each entry is one list of pointers, and clients choose the orderings.
        if (store.sorted.size >= 64) store.sorted.clear()
        store.sorted.set(key, (sorted = sortDocuments(pool, orderings)))
      }
      pool = sorted
    }
  }
  // `at(document.type, T)` is already met by every candidate of type T.
  const tests = matchers
    .filter(
      (m) => !(m.filter.name === 'at' && m.filter.path === 'document.type' && types.size === 1),
    )
    .map((m) => m.test)
  // Index lists already hold one type and language: check those only on a lookup's results.
  const checkLang = indexed !== undefined && lang !== '*'
  const checkType = indexed !== undefined && types.size > 0
  let results = pool.filter((entry) => {
    if (checkLang && entry.doc.lang !== lang) return false
    if (checkType) for (const type of types) if (entry.doc.type !== type) return false
    for (const test of tests) if (!test(entry)) return false
    return true
  })

  if (inFilter && ownOrder === inFilter) {
    const order = new Map((inFilter.args[0] as FilterValue[]).map((v, i) => [String(v), i]))
    const keyOf = (entry: StoredDocument) => String(valuesAt(entry, inFilter.path!)[0] ?? '')
    results.sort((a, b) => (order.get(keyOf(a)) ?? 0) - (order.get(keyOf(b)) ?? 0))
  } else if (near && ownOrder === near) {
    const [lat, lng] = near.args as [number, number]
    const distance = (entry: StoredDocument) =>
      geoDistance(valuesAt(entry, near.path!)[0] ?? null, lat, lng) ?? Infinity
    results.sort((a, b) => distance(a) - distance(b))
  } else if (indexed) {
    results = sortDocuments(results, orderings)
  }

  const after = params.get('after')
  if (after) {
    const index = results.findIndex((entry) => entry.doc.id === after)
    if (index >= 0) results = results.slice(index + 1)
  }

  const total = results.length
  const totalPages = Math.ceil(total / pageSize)
  const pageResults = results.slice((page - 1) * pageSize, page * pageSize)

  let routes: Route[] = []
  try {
    routes = parseRoutes(params.get('routes'))
  } catch (error) {
    return parsingError(c, `routes is not valid: ${(error as Error).message}`)
  }
  let graphQuery: Selection | undefined
  const graphQueryParam = params.get('graphQuery')
  if (graphQueryParam) {
    try {
      graphQuery = parseGraphQuery(graphQueryParam)
    } catch (error) {
      if (error instanceof GraphQueryError)
        return parsingError(c, `graphQuery: ${error.message}`, graphQueryParam, error.column)
      throw error
    }
  }
  const brokenRoute = params.get('brokenRoute')
  const fetchFields = splitList(params.get('fetch'))
  const fetchLinks = splitList(params.get('fetchLinks'))

  const pageUrl = (n: number) => {
    const next = new URL(url)
    next.searchParams.set('page', String(n))
    return next.toString()
  }

  const mediaBase = apiUrl.replace(/\/api\/v2$/, '/media')
  const body = {
    page,
    results_per_page: pageSize,
    results_size: pageResults.length,
    total_results_size: total,
    total_pages: totalPages,
    next_page: page < totalPages ? pageUrl(page + 1) : null,
    prev_page: page > 1 ? pageUrl(page - 1) : null,
    results: pageResults.map((entry) =>
      finalizeDocument(entry.doc, store, {
        routes,
        brokenRoute,
        fetchFields,
        fetchLinks,
        graphQuery,
      }),
    ),
  }
  const json = JSON.stringify(body).replaceAll(API_TOKEN, apiUrl).replaceAll(MEDIA_TOKEN, mediaBase)
  return new Response(json, {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  })
}

/** The documents an id or uid filter names, straight from the indexes (undefined: no such filter). */
function lookup(store: ContentStore, filters: Filter[]): StoredDocument[] | undefined {
  for (const f of filters) {
    if (f.name !== 'at' && f.name !== 'in') continue
    const values = f.name === 'at' ? [f.args[0]] : f.args[0]
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) continue
    const unique = [...new Set(values as string[])]
    if (f.path === 'document.id')
      return unique.map((id) => store.byId.get(id)).filter((e): e is StoredDocument => !!e)
    const uidOf = f.path?.match(/^my\.([^.]+)\.uid$/)
    if (uidOf) return unique.flatMap((uid) => store.byUid.get(`${uidOf[1]}\0${uid}`) ?? [])
  }
  return undefined
}

/** The smallest indexed list that holds every possible match (by type and language). */
function candidates(store: ContentStore, types: Set<string>, lang: string): StoredDocument[] {
  if (types.size > 1) return []
  if (types.size === 1) {
    const byLang = store.byType.get([...types][0]!)
    if (!byLang) return []
    return lang === '*' ? [...byLang.values()].flat() : (byLang.get(lang) ?? [])
  }
  return lang === '*' ? store.documents : (store.byLang.get(lang) ?? [])
}

function splitList(value: string | null): string[] {
  return (value ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
}

type FinalizeOptions = {
  routes: Route[]
  brokenRoute: string | null
  fetchFields: string[]
  fetchLinks: string[]
  graphQuery?: Selection
}

/** Resolves `url` for a document and its links, and applies `fetch` and `fetchLinks`. */
function finalizeDocument(
  doc: PrismicApiDocument,
  store: ContentStore,
  o: FinalizeOptions,
): PrismicApiDocument {
  let data = doc.data
  const own = o.fetchFields
    .filter((f) => f.startsWith(`${doc.type}.`))
    .map((f) => f.slice(doc.type.length + 1))
  if (o.fetchFields.length > 0) {
    data = Object.fromEntries(Object.entries(data).filter(([k]) => own.includes(k)))
  }
  if (o.graphQuery) data = applyGraphQuery(doc.type, data, o.graphQuery, store)
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk)
    if (!value || typeof value !== 'object') return value
    if (value.link_type === 'Document' && typeof value.id === 'string') {
      const target = store.byId.get(value.id)
      if (!target) return { ...value, url: o.brokenRoute }
      const out: JsonObject = { ...value, url: resolveRoute(o.routes, target.doc, store) }
      const wanted = o.fetchLinks
        .filter((f) => f.startsWith(`${target.doc.type}.`))
        .map((f) => f.slice(target.doc.type.length + 1))
      if (wanted.length > 0) {
        out.data = Object.fromEntries(
          Object.entries(target.doc.data).filter(([k]) => wanted.includes(k)),
        )
      }
      return out
    }
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) out[k] = walk(v)
    return out
  }
  return { ...doc, url: resolveRoute(o.routes, doc, store), data: walk(data) as JsonObject }
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.hdr': 'application/octet-stream',
  '.ktx2': 'image/ktx2',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
}

function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
}
