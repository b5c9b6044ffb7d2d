import path from 'node:path'
import { readFile } from 'node:fs/promises'
import { Hono, type Context } from 'hono'
import { FilterParseError, parseQuery, type Filter, type FilterValue } from './filters'
import {
  compileFilter,
  FilterValueError,
  geoDistance,
  isKnownPath,
  parseOrderings,
  sortDocuments,
  typeOfPath,
  valuesAt,
  type FilterSchema,
} from './query'
import {
  API_TOKEN,
  listReleases,
  MEDIA_TOKEN,
  type ContentProblem,
  type ContentStore,
  type Json,
  type JsonObject,
  type PrismicApiDocument,
  type ReleaseInfo,
  type StoredDocument,
  type FileCache,
} from './store'
import { resolveRoute, parseRoutes, type Route } from './routes'
import { watchTree, type TreeWatcher } from './watch'
import { applyGraphQuery, GraphQueryError, parseGraphQuery, type Selection } from './graphquery'
import { filterSchema, formatProblems, loadChecked, loadModels, uniqueProblems } from './validate'
import { createWriteApp, MIGRATION_RELEASE, type WriteApiOptions, type WriteApp } from './write'
import { createMediaHandler, type MediaCacheOptions } from './images/media'
import { mediaHash, withVersion } from './images/version'
import type { ModelVariants } from './models/variants'
import { arModelLinks, modelLinks, warmVariants, type WarmReport } from './models/warm'

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
  /**
   * The site's preview route, which opening a preview token sends the browser to (as Prismic's
   * "preview" button does): default `/api/preview` on the API's own origin, right when the API
   * is mounted in the site.
   */
  previewUrl?: string
  /** Where image variants are kept on disk (default `.data/media-cache`, 256 MB). */
  mediaCache?: MediaCacheOptions
  /** The widths the site's `srcset`s ask for, rendered ahead of others (./images/media.ts). */
  priorityWidths?: readonly number[]
  /** Where model variants are kept on disk (default `.data/model-cache`, 1 GB). */
  modelCache?: MediaCacheOptions
}

/** Thrown when the content folder is invalid; its message is the full report. */
export class ContentInvalidError extends Error {
  constructor(readonly report: string) {
    super(report)
    this.name = 'ContentInvalidError'
  }
}

const MAX_PAGE_SIZE = 100

/** One ref the API answers: the master, or a release (the published documents with its drafts). */
export type ServedRef = {
  store: ContentStore
  /** The fields filters may name (400 "unexpected field" otherwise). */
  schema: FilterSchema
  /** Absent for the master ref. */
  release?: ReleaseInfo
}

/** Everything the API serves from one load of the folder. */
export type LoadedContent = {
  master: ServedRef
  releases: ServedRef[]
  /** What the API serves although `content:check` refuses it (documents older than their model). */
  warnings: ContentProblem[]
}

export type ContentApi = {
  fetch: (request: Request) => Promise<Response>
  /** The current store of the master ref (reloaded first when the folder changed). */
  store: () => ContentStore
  /** The current content: master, releases and warnings (reloaded first when it changed). */
  content: () => LoadedContent
  /** Image variants made so far and the bytes the disk cache holds. */
  mediaStats: () => { made: number; bytes: number; entries: number }
  /** The media's model variants (./models/variants.ts): their stats, and warming. */
  modelVariants: ModelVariants
  /**
   * Makes both tiers' variants of every model the published documents link to (build, publish);
   * resolves once done. Cached variants cost a file read each.
   */
  warmModels: () => Promise<WarmReport>
  /**
   * Reads the folder again before the next answer, as a publish on Prismic does (the site's
   * webhook calls it in local mode); the master ref moves if the content changed.
   */
  reload: () => void
  close: () => void
}

/**
 * Creates the content API over `options.contentDir`. Throws `ContentInvalidError` for content
 * Prismic could not hold (malformed files, repeated ids or uids); documents that merely no longer
 * fit their models are served, with warnings.
 */
export function createContentApi(options: ContentApiOptions): ContentApi {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  // Document files as last read, shared by every reload: an edit rereads that file alone.
  const files: FileCache = new Map()
  let content = load(options, files)
  const expiredRefs = new Set<string>()
  let dirty = false
  let watcher: TreeWatcher | undefined
  if (options.watch) {
    watcher = watchTree(path.resolve(options.contentDir), () => {
      dirty = true
    })
  }
  const current = (): LoadedContent => {
    if (dirty) {
      dirty = false
      try {
        const next = load(options, files)
        for (const ref of refsOf(content)) if (!refsOf(next).includes(ref)) expiredRefs.add(ref)
        content = next
      } catch (error) {
        // Keep serving the last valid content; the report is printed for the editor.
        console.error(String((error as Error).message))
      }
    }
    return content
  }

  const limiter = options.rateLimit ? createLimiter(options.rateLimit) : undefined
  const app = new Hono()
  let write: WriteApp | undefined
  let migration: ServedRef | undefined

  /**
   * The content as served: in a writable repository, the migration release (documents created
   * through the Migration API, not yet published) is one more release, with its own ref, as on
   * Prismic.
   */
  const served = (): LoadedContent => {
    const loaded = current()
    const store = write?.release()
    if (!store) return loaded
    if (migration?.store !== store)
      migration = {
        store,
        schema: filterSchema(store, options.modelsDir ?? options.contentDir),
        release: MIGRATION_RELEASE,
      }
    return { ...loaded, releases: [...loaded.releases, migration] }
  }

  app.use('*', async (c, next) => {
    if (limiter && !limiter()) {
      return c.json({ message: 'Too many requests' }, 429, {
        'Retry-After': String(options.retryAfter ?? 1),
      })
    }
    await next()
    c.header('Access-Control-Allow-Origin', '*')
  })

  const denied = (c: Context) =>
    !!options.accessToken && c.req.query('access_token') !== options.accessToken

  app.get(`${base}/api/v2`, (c) => {
    const loaded = served()
    if (denied(c)) return forbidden(c)
    return c.json(repositoryInfo(loaded, origin(c), base))
  })
  app.get(`${base}/api/v2/`, (c) => c.redirect(`${base}/api/v2${new URL(c.req.url).search}`, 301))

  // Prismic's Tags API (`forms.tags` in the repository answer): every tag in use, as a list.
  app.get(`${base}/api/tags`, (c) => {
    const loaded = current()
    if (denied(c)) return forbidden(c)
    return c.json(loaded.master.store.tags)
  })

  app.get(`${base}/api/v2/documents/search`, (c) => search(c, served(), expiredRefs, base, options))

  // A preview token opened in a browser goes on to the site's preview route, as Prismic's
  // "preview" button does: `<previewUrl>?token=<this URL>&documentId=<id>`.
  app.get(`${base}/previews/:release`, (c) => {
    const release = current().releases.find((r) => r.release!.id === c.req.param('release'))
    if (!release) return c.body(null, 404)
    // The token names the host the browser came by (a framework may rewrite the URL's host).
    const token = previewToken(browserOrigin(c), base, release.release!.id)
    const previewUrl = options.previewUrl ?? '/api/preview'
    const target = new URL(previewUrl, `${browserOrigin(c)}/`)
    target.searchParams.set('token', token)
    const documentId = c.req.query('documentId')
    if (documentId) target.searchParams.set('documentId', documentId)
    // A path stays on the browser's own origin.
    const location = URL.canParse(previewUrl)
      ? target.toString()
      : `${target.pathname}${target.search}`
    return c.redirect(location, 302)
  })

  // Facet's own: what the API serves although content:check refuses it, for tools to read.
  app.get(`${base}/warnings`, (c) => {
    const loaded = current()
    if (denied(c)) return forbidden(c)
    return c.json({ ref: loaded.master.store.ref, warnings: loaded.warnings })
  })

  // Media as Prismic's image CDN serves it: imgix parameters applied (./images/media.ts).
  const media = createMediaHandler(options.mediaCache, {
    priorityWidths: options.priorityWidths,
    models: { cache: options.modelCache },
  })
  app.get(`${base}/media/*`, (c) => {
    const rel = decodeURIComponent(new URL(c.req.url).pathname.slice(`${base}/media/`.length))
    if (rel.split('/').includes('..')) return c.body(null, 404)
    return media.serve(c.req.raw, path.join(current().master.store.dir, 'media', rel))
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
    store: () => current().master.store,
    content: current,
    mediaStats: media.stats,
    modelVariants: media.models,
    warmModels: () => {
      const store = current().master.store
      const documents = store.documents.map((d) => d.doc)
      const ar = arModelLinks(documents)
      const sources = modelLinks(documents)
        .filter((url) => url.startsWith(`${MEDIA_TOKEN}/`))
        .map((url) => {
          const rel = url.slice(MEDIA_TOKEN.length + 1).split('?')[0]!
          const file = path.join(store.dir, 'media', ...rel.split('/').map(decodeURIComponent))
          return {
            name: `media/${decodeURIComponent(rel)}`,
            id: mediaHash(file) ?? file,
            bytes: () => readFile(file),
            ar: ar.get(url),
          }
        })
      return warmVariants(media.models, sources)
    },
    reload: () => {
      dirty = true
    },
    close: () => watcher?.close(),
  }
}

/** Loads the published documents and every release, and reports what only warns. */
function load(options: ContentApiOptions, files?: FileCache): LoadedContent {
  const master = loadRef(options, undefined, files)
  const releases = listReleases(options.contentDir).map((info) => loadRef(options, info, files))
  const warnings = uniqueProblems([master, ...releases].map((r) => r.warnings))
  if (warnings.length > 0) printWarnings(warnings, master.store.dir)
  return { master, releases, warnings }
}

/** One ref's store: refused for errors, served with its warnings. */
function loadRef(
  options: ContentApiOptions,
  release?: ReleaseInfo,
  files?: FileCache,
): ServedRef & { warnings: ContentProblem[] } {
  const { store, problems } = loadChecked(options.contentDir, options.modelsDir, release?.id, files)
  const errors = problems.filter((p) => p.severity !== 'warning')
  if (errors.length > 0) throw new ContentInvalidError(formatProblems(errors, store.dir))
  labelTypes(store, options.modelsDir)
  return {
    store,
    schema: filterSchema(store, options.modelsDir),
    release,
    warnings: problems.filter((p) => p.severity === 'warning'),
  }
}

/** Prismic lists every custom type, with its label, documents or not; repository.json wins. */
function labelTypes(store: ContentStore, modelsDir?: string): void {
  if (!modelsDir) return
  for (const [id, { model }] of loadModels(modelsDir).customTypes)
    store.types[id] = store.repositoryTypes[id] ?? model.label ?? store.types[id] ?? id
}

function printWarnings(warnings: ContentProblem[], dir: string): void {
  console.warn(
    [
      formatProblems(warnings, dir).replace(
        /problems?:$/m,
        (m) => `${m.slice(0, -1)} it serves anyway:`,
      ),
      '  Prismic serves documents older than their models until they are republished, and so does',
      '  this API. `npm run content:check` fails on them; GET <api>/warnings lists them as JSON.',
    ].join('\n'),
  )
}

function refsOf(content: LoadedContent): string[] {
  return [content.master, ...content.releases].map((r) => r.store.ref)
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

/**
 * 401 for a missing or wrong access token, on every endpoint: `{ type, message }` as the client's
 * ForbiddenErrorRepositoryAPIResponse types it (with Prismic's `oauth_*` links), and `message` is
 * what its ForbiddenError reads (`#throwContentAPIError`, case 401).
 */
function forbidden(c: Context): Response {
  return c.json(
    {
      type: 'api_security_error',
      message: 'Invalid access token. Get a valid one from your repository settings.',
      oauth_initiate: `${origin(c)}/auth`,
      oauth_token: `${origin(c)}/auth/token`,
    },
    401,
  )
}

function origin(c: Context): string {
  return new URL(c.req.url).origin
}

/** The origin as the browser wrote it: its `Host` header, when it sent one. */
function browserOrigin(c: Context): string {
  const url = new URL(c.req.url)
  const host = c.req.header('host')
  return host ? `${url.protocol}//${host}` : url.origin
}

/**
 * A preview token as Prismic issues them: a URL on the repository's host under `/previews/`,
 * with `websitePreviewId` (which @prismicio/next's `getPreviewRef` looks for in the cookie).
 * Here the release's id takes the place of Prismic's session and release ids.
 */
function previewToken(apiOrigin: string, base: string, releaseId: string): string {
  const id = encodeURIComponent(releaseId)
  return `${apiOrigin}${base}/previews/${id}?websitePreviewId=${id}`
}

/** The answer of `GET /api/v2`. */
export function repositoryInfo(content: LoadedContent, apiOrigin: string, base = '') {
  const apiUrl = `${apiOrigin}${base}/api/v2`
  const string = (extra: object = {}) => ({ type: 'String', multiple: false, ...extra })
  const { store } = content.master
  return {
    refs: [
      { id: 'master', ref: store.ref, label: 'Master', isMasterRef: true },
      ...content.releases.map(({ store: s, release }) => ({
        id: release!.id,
        ref: s.ref,
        label: release!.label,
        isMasterRef: false,
      })),
    ],
    bookmarks: {},
    types: store.types,
    languages: store.languages,
    // Since 2021 Prismic lists tags through the Tags API only, and keeps `tags: []` here.
    tags: [],
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
      // `getTags()` follows this form's action (the client's tests give it `fields: {}`).
      tags: {
        method: 'GET',
        enctype: 'application/x-www-form-urlencoded',
        action: `${apiOrigin}${base}/api/tags`,
        fields: {},
      },
    },
    oauth_initiate: `${apiOrigin}/auth`,
    oauth_token: `${apiOrigin}/auth/token`,
    version: 'facet-local',
    integrationFieldsRef: null,
    license: 'All Rights Reserved',
    experiments: { draft: [], running: [] },
  }
}

/**
 * 400 `parsing-error` as Prismic sends it: `line`, `column`, `id` and `location` at the top level
 * of the body (the official client's tests answer ParsingError with exactly these keys).
 * `location` points at the column with a caret under the query, as Prismic's message does.
 */
function parsingError(c: Context, message: string, query = '', column = 0) {
  return c.json(
    {
      type: 'parsing-error',
      message,
      line: 1,
      column,
      id: 0,
      location: query ? `${query}\n${' '.repeat(Math.max(0, column - 1))}^` : '',
    },
    400,
  )
}

async function search(
  c: Context,
  content: LoadedContent,
  expiredRefs: Set<string>,
  base: string,
  options: ContentApiOptions,
): Promise<Response> {
  const url = new URL(c.req.url)
  const params = url.searchParams
  const apiUrl = `${url.origin}${base}/api/v2`
  if (options.accessToken && params.get('access_token') !== options.accessToken) return forbidden(c)

  const served = resolveRef(params.get('ref'), content, expiredRefs, base)
  if (!served || 'status' in served) return refError(c, served, content, url.origin)
  const { store } = served

  const pageRaw = params.get('page') ?? '1'
  const sizeRaw = params.get('pageSize') ?? '20'
  const page = Number(pageRaw)
  const pageSize = Number(sizeRaw)
  if (!Number.isInteger(page) || page < 1)
    return parsingError(c, `page must be a whole number of 1 or more, got "${pageRaw}"`)
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return parsingError(c, `pageSize must be between 1 and ${MAX_PAGE_SIZE}, got "${sizeRaw}"`)
  }

  const filters = readFilters(params.getAll('q'), served.schema)
  if (!Array.isArray(filters))
    return parsingError(c, filters.message, filters.query, filters.column)

  let matchers
  try {
    matchers = filters.map((f) => ({ filter: f, test: compileFilter(f, store) }))
  } catch (error) {
    if (error instanceof FilterValueError)
      return parsingError(c, `${error.message} in ${error.filter.source}`, error.filter.source, 1)
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
        return parsingError(c, `graphQuery: ${error.message}`, graphQueryParam, error.column + 1)
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
  const json = withMediaUrls(
    JSON.stringify(body).replaceAll(API_TOKEN, apiUrl),
    mediaBase,
    content.master.store,
  )
  return new Response(json, {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  })
}

/** A media URL as the store writes it into a JSON string: path, then the query if any. */
const STORED_MEDIA_URL = new RegExp(`${MEDIA_TOKEN}/([^"?\\\\]*)(\\?[^"\\\\]*)?`, 'g')
/** Each media file's hash, by store (a new load of the folder hashes again). */
const mediaHashes = new WeakMap<ContentStore, Map<string, string | undefined>>()

/**
 * The media URLs of an answer, absolute under `mediaBase`, each with the hash of the file's bytes
 * (`v=`, ./images/version.ts), so a replaced file is a new URL.
 */
function withMediaUrls(json: string, mediaBase: string, store: ContentStore): string {
  let hashes = mediaHashes.get(store)
  if (!hashes) mediaHashes.set(store, (hashes = new Map()))
  return json.replace(STORED_MEDIA_URL, (_, rel: string, query: string | undefined) => {
    if (!hashes.has(rel)) {
      const file = path.join(store.dir, 'media', ...rel.split('/').map(decodeURIComponent))
      hashes.set(rel, mediaHash(file))
    }
    return withVersion(`${mediaBase}/${rel}${query ?? ''}`, hashes.get(rel))
  })
}

type QueryProblem = { message: string; query: string; column: number }

/**
 * Every `q` parameter's filters, or the first problem: a query that cannot be parsed, or a path
 * the repository does not have (Prismic's "unexpected field"). Columns count from 1.
 */
function readFilters(queries: string[], schema: FilterSchema): Filter[] | QueryProblem {
  const filters: Filter[] = []
  for (const query of queries) {
    let parsed: Filter[]
    try {
      parsed = parseQuery(query)
    } catch (error) {
      if (!(error instanceof FilterParseError)) throw error
      const column = error.column + 1
      return { message: unexpectedIn(error.message, query, column), query, column }
    }
    const unknown = parsed.find((f) => f.path && !isKnownPath(f.path, schema))
    if (unknown) {
      const column = query.indexOf(unknown.path!) + 1
      const message = unexpectedIn(`unexpected field '${unknown.path}'`, query, column)
      return { message, query, column }
    }
    filters.push(...parsed)
  }
  return filters
}

/**
 * A parsing error's message as Prismic words it: what went wrong, where, and in which query
 * (`unexpected field 'my.page.nofield' on line:1 col:6 in query '[[…]]'`). The wording after
 * "unexpected field" is Facet's own; Prismic's documentation does not spell it out.
 */
function unexpectedIn(message: string, query: string, column: number): string {
  return `${message} on line:1 col:${column} in query '${query}'`
}

type RefProblem = { status: 404 | 410; preview?: boolean }

/**
 * The store a `ref` names: the master or a release by its current ref, or a release by its
 * preview token (the token's URL, or the JSON cookie Prismic's toolbar writes around it).
 */
function resolveRef(
  ref: string | null,
  content: LoadedContent,
  expiredRefs: Set<string>,
  base: string,
): ServedRef | RefProblem | undefined {
  if (!ref) return undefined
  const all = [content.master, ...content.releases]
  const byRef = all.find((r) => r.store.ref === ref)
  if (byRef) return byRef
  const token = previewTokenIn(ref)
  if (token) {
    const match = new URL(token).pathname.match(/\/previews\/([^/]+)$/)
    const prefix = new URL(token).pathname.slice(0, match?.index ?? 0)
    const id = match && prefix === base ? decodeURIComponent(match[1]!) : undefined
    return content.releases.find((r) => r.release!.id === id) ?? { status: 404, preview: true }
  }
  return { status: expiredRefs.has(ref) ? 410 : 404 }
}

/**
 * The preview token in a `ref`: a URL whose path is under `/previews/`, given as is or inside the
 * `io.prismic.preview` cookie's JSON (`{"<repo host>":{"preview":"<token>"}}`, maybe
 * percent-encoded), which @prismicio/client sends as the ref unchanged.
 */
function previewTokenIn(ref: string): string | undefined {
  const isToken = (value: string) =>
    URL.canParse(value) && new URL(value).pathname.includes('/previews/')
  if (isToken(ref)) return ref
  let decoded = ref
  try {
    decoded = decodeURIComponent(ref)
  } catch {
    return undefined
  }
  if (!decoded.startsWith('{')) return isToken(decoded) ? decoded : undefined
  try {
    const cookie = JSON.parse(decoded) as Record<string, { preview?: unknown } | unknown>
    for (const value of Object.values(cookie)) {
      const preview = (value as { preview?: unknown } | null)?.preview
      if (typeof preview === 'string' && isToken(preview)) return preview
    }
  } catch {
    // Not the toolbar's JSON: an unknown ref.
  }
  return undefined
}

/**
 * The answers for a ref the API does not serve, each as the official client reads it:
 * - none: 400 `api_validation_error` (Facet's own wording; the client always sends a ref);
 * - unknown: 404 `api_notfound_error` naming the master ref (RefNotFoundError, then a retry);
 * - replaced: 410 `api_validation_error` naming the master ref (RefExpiredError, then a retry);
 * - a preview token for no release: 404 `api_security_error` "This preview token has expired",
 *   with `oauth_initiate` and `oauth_token` (PreviewTokenExpiredError).
 */
function refError(
  c: Context,
  problem: RefProblem | undefined,
  content: LoadedContent,
  apiOrigin: string,
): Response {
  const master = content.master.store.ref
  if (!problem)
    return c.json({ type: 'api_validation_error', message: 'The ref parameter is required.' }, 400)
  if (problem.preview)
    return c.json(
      {
        type: 'api_security_error',
        message: 'This preview token has expired',
        oauth_initiate: `${apiOrigin}/auth`,
        oauth_token: `${apiOrigin}/auth/token`,
      },
      404,
    )
  if (problem.status === 410)
    return c.json(
      {
        type: 'api_validation_error',
        message: `The ref ${c.req.query('ref')} has expired. Master ref is: ${master}`,
      },
      410,
    )
  return c.json(
    {
      type: 'api_notfound_error',
      message: `Ref not found. Ensure you have the correct ref and try again. Master ref is: ${master}`,
    },
    404,
  )
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
