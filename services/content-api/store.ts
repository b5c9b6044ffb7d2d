import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import path from 'node:path'
import { imageSize } from 'image-size'
import { imageView, readCrop, rememberSource, type Crop, type ImageOrigin } from './images/field'

/**
 * Loads a content folder (see docs/content.md) into memory as Prismic documents. Everything a
 * Prismic API derives (ids, hrefs, alternates, expanded links and images, the master ref) is
 * computed here, so nobody writes it by hand.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export type PrismicAlternate = { id: string; uid?: string; type: string; lang: string }

/** A document as the Content API returns it (before `url` and media URLs are resolved). */
export type PrismicApiDocument = {
  id: string
  uid: string | null
  url: string | null
  type: string
  href: string
  tags: string[]
  first_publication_date: string
  last_publication_date: string
  slugs: string[]
  linked_documents: unknown[]
  lang: string
  alternate_languages: PrismicAlternate[]
  data: JsonObject
}

export type StoredDocument = {
  doc: PrismicApiDocument
  /** The file it came from, relative to the content folder. */
  file: string
  /** The alternate group: documents of one type and key are translations of each other. */
  key: string
  /** Lower-cased text of the document, for `fulltext`. */
  text: string
  /** Epoch ms of the publication dates, for sorting and date filters. */
  firstPublished: number
  lastPublished: number
  /** Sort keys already computed for an ordering path (filled lazily by the query engine). */
  sortKeys: Map<string, string | number | undefined>
}

export type Language = { id: string; name: string; is_master: boolean }

/**
 * One finding about a content folder. A `warning` is what Prismic would still serve (content
 * older than its model, a broken link): the API serves it and reports it; `content:check` fails
 * on warnings and errors alike.
 */
export type ContentProblem = {
  file: string
  path: string
  message: string
  severity?: 'warning'
}

export type ContentStore = {
  dir: string
  ref: string
  languages: Language[]
  masterLang: string
  types: Record<string, string>
  /** The labels `repository.json` gives, which win over the models' labels. */
  repositoryTypes: Record<string, string>
  tags: string[]
  documents: StoredDocument[]
  byId: Map<string, StoredDocument>
  /** Documents by type, then by language (in `documents` order): the usual search narrows here. */
  byType: Map<string, Map<string, StoredDocument[]>>
  /** Documents by language. */
  byLang: Map<string, StoredDocument[]>
  /** Documents by `type\0uid` (one per language at most). */
  byUid: Map<string, StoredDocument[]>
  /** Candidate lists already sorted for an ordering, by `types|lang|orderings` (filled by search). */
  sorted: Map<string, StoredDocument[]>
  problems: ContentProblem[]
  loadedAt: number
  /** Document files read from disk by this load; the others came from the `files` cache. */
  filesRead: number
}

/** Stands for the media base URL until a response knows its own origin. */
export const MEDIA_TOKEN = '@@facet-media@@'
/** Stands for the search endpoint URL in `href` until a response knows its own origin. */
export const API_TOKEN = '@@facet-api@@'

const DOCUMENT_KEYS = new Set([
  'id',
  'uid',
  'tags',
  'first_publication_date',
  'last_publication_date',
  'data',
])

const DEFAULT_DATE = '2026-01-01T00:00:00+0000'

const LANGUAGE_NAMES: Record<string, string> = {
  'en-us': 'English - United States',
  'en-gb': 'English - Great Britain',
  'fr-fr': 'French - France',
  'de-de': 'German - Germany',
  'es-es': 'Spanish - Spain',
  'it-it': 'Italian - Italy',
}

type RawDocument = {
  id?: unknown
  uid?: unknown
  tags?: unknown
  first_publication_date?: unknown
  last_publication_date?: unknown
  data?: unknown
}

type RepositoryFile = {
  name?: string
  languages?: { id: string; name?: string; master?: boolean }[]
  types?: Record<string, string>
}

/** A stable, Prismic-looking id (16 URL-safe characters) for a document or an asset. */
export function stableId(seed: string): string {
  return createHash('sha256').update(seed).digest('base64url').slice(0, 16)
}

/** Formats a date as Prismic does: `2017-12-13T22:57:54+0000`. */
export function prismicTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000')
}

/** Reads a Prismic timestamp or any ISO date; NaN when it is not one. */
export function parseTimestamp(value: string): number {
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  return Date.parse(normalized)
}

/** Every file under `dir` (relative, `/`-separated, sorted), skipping dot names. */
export function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return []
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listFiles(full, base))
    else if (entry.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'))
  }
  return out.sort()
}

function readJson(file: string, problems: ContentProblem[], rel: string): unknown {
  return parseJson(readFileSync(file, 'utf8'), problems, rel)
}

function parseJson(text: string, problems: ContentProblem[], rel: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    problems.push({
      file: rel,
      path: '$',
      message: `is not valid JSON: ${(error as Error).message}`,
    })
    return undefined
  }
}

function titleCase(id: string): string {
  return id.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase())
}

type MediaInfo = {
  path: string
  size: number
  width?: number
  height?: number
  kind: 'image' | 'file'
}

function mediaInfo(
  dir: string,
  mediaPath: string,
  cache: Map<string, MediaInfo | null>,
): MediaInfo | null {
  if (cache.has(mediaPath)) return cache.get(mediaPath)!
  const file = path.join(dir, 'media', mediaPath)
  let info: MediaInfo | null = null
  if (!mediaPath.includes('..') && existsSync(file) && statSync(file).isFile()) {
    const size = statSync(file).size
    info = { path: mediaPath, size, kind: 'file' }
    if (/\.(png|jpe?g|webp|avif|gif|svg)$/i.test(mediaPath)) {
      try {
        const dims = imageSize(readFileSync(file))
        info = { ...info, kind: 'image', width: dims.width, height: dims.height }
      } catch {
        info = { ...info, kind: 'image' }
      }
    }
  }
  cache.set(mediaPath, info)
  return info
}

/** Collects the text of a document's fields for `fulltext`. */
function collectText(value: Json, out: string[], key = ''): void {
  if (typeof value === 'string') {
    if (
      ![
        'url',
        'link_type',
        'id',
        'kind',
        'type',
        'lang',
        'background',
        'target',
        'embed_url',
        'html',
      ].includes(key)
    ) {
      out.push(value)
    }
  } else if (Array.isArray(value)) {
    for (const item of value) collectText(item, out, key)
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'spans' || k === 'dimensions' || k === 'edit') continue
      collectText(v, out, k)
    }
  }
}

/** A release: drafts kept in `releases/<id>/documents/`, adding to or replacing the published ones. */
export type ReleaseInfo = { id: string; label: string }

/** What `loadContent` reads besides the published documents. */
export type LoadOptions = {
  /** A release id (a folder under `releases/`): its documents add to or replace the published. */
  release?: string
  /**
   * Document files read by earlier loads, kept by the caller between loads (the API keeps one
   * per process): a file whose size, modification time and inode have not changed is not read
   * or parsed again, so a reload after an edit reads the files that changed, not the folder.
   */
  files?: FileCache
}

/** A document file as last read: its identity on disk, a digest of its bytes, and its JSON. */
export type CachedFile = {
  size: number
  mtimeMs: number
  ino: number
  digest: string
  /** The parsed JSON, or undefined with `problem` when the file was not valid JSON. */
  value: unknown
  problem?: ContentProblem
}

/** Document files by absolute path (see `LoadOptions.files`). */
export type FileCache = Map<string, CachedFile>

/**
 * The releases of a content folder: every `releases/<id>/` with a `documents/` folder, labelled by
 * its `release.json` (`{ "label": "…" }`) or else by its id, title-cased.
 */
export function listReleases(dir: string): ReleaseInfo[] {
  const root = path.join(path.resolve(dir), 'releases')
  if (!existsSync(root)) return []
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, 'documents')))
    .map((e) => e.name)
    .sort()
    .map((id) => {
      let label = titleCase(id)
      const file = path.join(root, id, 'release.json')
      try {
        const parsed = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : {}
        const given = (parsed as { label?: unknown } | null)?.label
        if (typeof given === 'string' && given.trim()) label = given.trim()
      } catch {
        // An unreadable release.json keeps the default label; content:check reports nothing here
        // because the label is cosmetic.
      }
      return { id, label }
    })
}

type Pending = { raw: RawDocument; type: string; key: string; lang: string; file: string }

/** The document index built by the first pass, before links are expanded. */
type Identified = {
  stored: StoredDocument[]
  groups: Map<string, StoredDocument[]>
  byId: Map<string, StoredDocument>
  byUid: Map<string, StoredDocument[]>
  byTypeAll: Map<string, StoredDocument[]>
}

/**
 * Loads and derives every document of a content folder, or of one of its releases (the published
 * documents with the release's on top). Never throws for bad content: it reports.
 */
export function loadContent(dir: string, options: LoadOptions = {}): ContentStore {
  const problems: ContentProblem[] = []
  const absolute = path.resolve(dir)
  if (!existsSync(path.join(absolute, 'documents'))) {
    problems.push({
      file: 'documents/',
      path: '$',
      message: `is missing: ${absolute} has no documents folder`,
    })
  }
  const hash = createHash('sha256')
  const repo = readRepository(absolute, hash, problems)
  if (options.release) hash.update(`release:${options.release}\0`)
  const read = { count: 0 }
  const pending = readDocuments(absolute, documentFiles(absolute, options.release), {
    hash,
    problems,
    files: options.files,
    read,
  })
  for (const rel of listFiles(path.join(absolute, 'media'))) {
    hash.update(`media/${rel}\0`).update(String(statSync(path.join(absolute, 'media', rel)).size))
  }
  const ref = hash.digest('base64url').slice(0, 16)

  const languages = languagesOf(repo, pending)
  const masterLang = languages.find((l) => l.is_master)?.id ?? languages[0]?.id ?? 'en-us'
  const identified = identify(pending, ref, problems)
  linkAlternates(identified.groups)
  expandDocuments(absolute, identified, masterLang, problems)
  return {
    dir: absolute,
    ref,
    languages,
    masterLang,
    repositoryTypes: { ...repo.types },
    problems,
    loadedAt: Date.now(),
    filesRead: read.count,
    ...indexDocuments(identified, repo),
  }
}

function readRepository(
  absolute: string,
  hash: ReturnType<typeof createHash>,
  problems: ContentProblem[],
): RepositoryFile {
  const repoFile = path.join(absolute, 'repository.json')
  if (!existsSync(repoFile)) return {}
  hash.update('repository.json\0').update(readFileSync(repoFile))
  return (readJson(repoFile, problems, 'repository.json') as RepositoryFile) ?? {}
}

/**
 * The document files to read, by their place under `documents/` (`<type>/<key>/<lang>.json`),
 * each with the file it comes from: a release's file replaces the published file of that place.
 */
function documentFiles(absolute: string, release?: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const rel of listFiles(path.join(absolute, 'documents'))) files.set(rel, `documents/${rel}`)
  if (release) {
    const base = `releases/${release}/documents`
    for (const rel of listFiles(path.join(absolute, base))) files.set(rel, `${base}/${rel}`)
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

type ReadContext = {
  hash: ReturnType<typeof createHash>
  problems: ContentProblem[]
  files?: FileCache
  read: { count: number }
}

/**
 * A document file's digest and JSON: from the cache when the file is unchanged on disk, else
 * read (and counted) and kept for the next load.
 */
function readDocumentFile(full: string, file: string, ctx: ReadContext): CachedFile {
  const stat = statSync(full)
  const cached = ctx.files?.get(full)
  if (
    cached &&
    cached.size === stat.size &&
    cached.mtimeMs === stat.mtimeMs &&
    cached.ino === stat.ino
  )
    return cached
  ctx.read.count += 1
  const bytes = readFileSync(full)
  const problems: ContentProblem[] = []
  const value = parseJson(bytes.toString('utf8'), problems, file)
  const entry: CachedFile = {
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ino: stat.ino,
    digest: createHash('sha256').update(bytes).digest('base64url'),
    value,
    problem: problems[0],
  }
  ctx.files?.set(full, entry)
  return entry
}

/** Reads each document file, reporting those that are misplaced, malformed or have stray keys. */
function readDocuments(absolute: string, files: Map<string, string>, ctx: ReadContext): Pending[] {
  const { hash, problems } = ctx
  const pending: Pending[] = []
  for (const [rel, file] of files) {
    const parts = rel.split('/')
    const read = readDocumentFile(path.join(absolute, file), file, ctx)
    // The ref follows every byte of every document (through its digest).
    hash.update(file + '\0').update(read.digest)
    if (parts.length !== 3 || !parts[2]!.endsWith('.json')) {
      problems.push({
        file,
        path: '$',
        message: 'is not where a document belongs: documents/<type>/<key>/<lang>.json',
      })
      continue
    }
    const [type, key, langFile] = parts as [string, string, string]
    const lang = langFile.replace(/\.json$/, '')
    if (read.problem) problems.push(read.problem)
    const raw = read.value
    if (raw === undefined) continue
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({ file, path: '$', message: 'must be a JSON object with "data"' })
      continue
    }
    checkDocumentKeys(raw as RawDocument, file, problems)
    pending.push({ raw: raw as RawDocument, type, key, lang, file })
  }
  return pending
}

function checkDocumentKeys(raw: RawDocument, file: string, problems: ContentProblem[]): void {
  for (const name of Object.keys(raw)) {
    if (!DOCUMENT_KEYS.has(name))
      problems.push({
        file,
        path: `$.${name}`,
        message: `is not a key of a document file (${[...DOCUMENT_KEYS].join(', ')}); fields go in "data"`,
      })
  }
  const { uid, tags } = raw
  if (uid !== undefined && uid !== null && (typeof uid !== 'string' || uid === ''))
    problems.push({
      file,
      path: '$.uid',
      message: `must be a non-empty string; got ${JSON.stringify(uid)}`,
    })
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')))
    problems.push({
      file,
      path: '$.tags',
      message: `must be a list of strings; got ${JSON.stringify(tags)}`,
    })
}

function languagesOf(repo: RepositoryFile, pending: Pending[]): Language[] {
  if (repo.languages?.length)
    return repo.languages.map((l, i) => ({
      id: l.id,
      name: l.name ?? LANGUAGE_NAMES[l.id] ?? l.id,
      is_master: l.master ?? i === 0,
    }))
  const langIds = [...new Set(pending.map((p) => p.lang))]
  return (
    langIds.includes('en-us') ? ['en-us', ...langIds.filter((l) => l !== 'en-us')] : langIds
  ).map((id, i) => ({ id, name: LANGUAGE_NAMES[id] ?? id, is_master: i === 0 }))
}

/** First pass: each document's identity and dates, indexed so links can be resolved next. */
function identify(pending: Pending[], ref: string, problems: ContentProblem[]): Identified {
  const out: Identified = {
    stored: [],
    groups: new Map(),
    byId: new Map(),
    byUid: new Map(),
    byTypeAll: new Map(),
  }
  for (const p of pending) {
    const entry = storedDocument(p, ref, problems)
    const { id, uid, type } = entry.doc
    if (out.byId.has(id))
      problems.push({
        file: p.file,
        path: '$.id',
        message: `repeats the id "${id}" of ${out.byId.get(id)!.file}`,
      })
    out.stored.push(entry)
    out.byId.set(id, entry)
    pushTo(out.groups, `${type}/${p.key}`, entry)
    if (uid !== null) pushTo(out.byUid, `${type}\0${uid}`, entry)
    pushTo(out.byTypeAll, type, entry)
  }
  return out
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function storedDocument(p: Pending, ref: string, problems: ContentProblem[]): StoredDocument {
  const { raw, type, key, lang, file } = p
  const id = typeof raw.id === 'string' && raw.id ? raw.id : stableId(`${type}/${key}/${lang}`)
  const uid = typeof raw.uid === 'string' ? raw.uid : raw.uid == null ? null : String(raw.uid)
  const tags = Array.isArray(raw.tags)
    ? raw.tags.filter((t): t is string => typeof t === 'string')
    : []
  const first =
    typeof raw.first_publication_date === 'string' ? raw.first_publication_date : DEFAULT_DATE
  const last = typeof raw.last_publication_date === 'string' ? raw.last_publication_date : first
  const firstMs = parseTimestamp(first)
  const lastMs = parseTimestamp(last)
  if (Number.isNaN(firstMs))
    problems.push({
      file,
      path: '$.first_publication_date',
      message: `is not a date: "${first}"`,
    })
  if (Number.isNaN(lastMs))
    problems.push({ file, path: '$.last_publication_date', message: `is not a date: "${last}"` })
  const data =
    raw.data && typeof raw.data === 'object' && !Array.isArray(raw.data)
      ? (raw.data as JsonObject)
      : {}
  if (!raw.data) problems.push({ file, path: '$.data', message: 'is missing' })
  return {
    doc: {
      id,
      uid,
      url: null,
      type,
      href: `${API_TOKEN}/documents/search?ref=${ref}&q=%5B%5B%3Ad+%3D+at%28document.id%2C+%22${encodeURIComponent(id)}%22%29+%5D%5D`,
      tags,
      first_publication_date: Number.isNaN(firstMs) ? DEFAULT_DATE : prismicTimestamp(firstMs),
      last_publication_date: Number.isNaN(lastMs) ? DEFAULT_DATE : prismicTimestamp(lastMs),
      slugs: [slugify(uid ?? key)],
      linked_documents: [],
      lang,
      alternate_languages: [],
      data,
    },
    file,
    key,
    text: '',
    firstPublished: Number.isNaN(firstMs) ? 0 : firstMs,
    lastPublished: Number.isNaN(lastMs) ? 0 : lastMs,
    sortKeys: new Map(),
  }
}

/** Documents of one type and key are translations of each other. */
function linkAlternates(groups: Map<string, StoredDocument[]>): void {
  for (const group of groups.values()) {
    for (const entry of group) {
      entry.doc.alternate_languages = group
        .filter((other) => other !== entry)
        .map((other) => ({
          id: other.doc.id,
          ...(other.doc.uid ? { uid: other.doc.uid } : {}),
          type: other.doc.type,
          lang: other.doc.lang,
        }))
    }
  }
}

type ExpandContext = {
  absolute: string
  index: Identified
  masterLang: string
  mediaCache: Map<string, MediaInfo | null>
  problems: ContentProblem[]
}

/** Second pass: shorthand links and images become Prismic's full shapes; text is indexed. */
function expandDocuments(
  absolute: string,
  index: Identified,
  masterLang: string,
  problems: ContentProblem[],
): void {
  const ctx: ExpandContext = { absolute, index, masterLang, mediaCache: new Map(), problems }
  for (const entry of index.stored) {
    entry.doc.data = expand(ctx, entry, entry.doc.data, '$.data') as JsonObject
    const text: string[] = []
    if (entry.doc.uid) text.push(entry.doc.uid)
    collectText(entry.doc.data, text)
    entry.text = text.join(' \n ').toLowerCase()
  }
}

function resolveDocLink(
  ctx: ExpandContext,
  from: StoredDocument,
  link: JsonObject,
): StoredDocument | undefined {
  const { byId, groups, byUid, byTypeAll } = ctx.index
  if (typeof link.id === 'string' && byId.has(link.id)) return byId.get(link.id)
  const type = typeof link.type === 'string' ? link.type : undefined
  const lang = typeof link.lang === 'string' ? link.lang : from.doc.lang
  if (type && typeof link.key === 'string') {
    const group = groups.get(`${type}/${link.key}`) ?? []
    return (
      group.find((d) => d.doc.lang === lang) ??
      group.find((d) => d.doc.lang === ctx.masterLang) ??
      group[0]
    )
  }
  if (type && typeof link.uid === 'string') {
    const candidates = byUid.get(`${type}\0${link.uid}`) ?? []
    return candidates.find((d) => d.doc.lang === lang) ?? candidates[0]
  }
  if (type && !link.uid && !link.key && !link.id) {
    // A link to a single type: its document in this language.
    const candidates = byTypeAll.get(type) ?? []
    return candidates.find((d) => d.doc.lang === lang) ?? candidates[0]
  }
  return undefined
}

function expand(ctx: ExpandContext, entry: StoredDocument, value: Json, jsonPath: string): Json {
  if (Array.isArray(value))
    return value.map((item, i) => expand(ctx, entry, item, `${jsonPath}[${i}]`))
  if (!value || typeof value !== 'object') return value
  const obj = value as JsonObject
  if (obj.link_type === 'Document' && !('isBroken' in obj && 'slug' in obj))
    return expandDocumentLink(ctx, entry, obj, jsonPath)
  if (typeof obj.media === 'string') return expandMedia(ctx, entry, obj, jsonPath)
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(obj)) out[k] = expand(ctx, entry, v, `${jsonPath}.${k}`)
  return out
}

function expandDocumentLink(
  ctx: ExpandContext,
  entry: StoredDocument,
  obj: JsonObject,
  jsonPath: string,
): Json {
  const target = resolveDocLink(ctx, entry, obj)
  if (!target) {
    if (Object.keys(obj).length === 1) return { link_type: 'Any' }
    // Prismic serves a link whose target is gone as broken: so does the API, with a warning.
    ctx.problems.push({
      file: entry.file,
      path: jsonPath,
      message: `links to a document that does not exist: ${JSON.stringify(obj)}`,
      severity: 'warning',
    })
    return { link_type: 'Document', isBroken: true, ...stripShorthand(obj) }
  }
  const t = target.doc
  return {
    ...stripShorthand(obj),
    link_type: 'Document',
    id: t.id,
    type: t.type,
    tags: t.tags,
    lang: t.lang,
    slug: t.slugs[0] ?? null,
    first_publication_date: t.first_publication_date,
    last_publication_date: t.last_publication_date,
    ...(t.uid ? { uid: t.uid } : {}),
    url: null,
    isBroken: false,
  }
}

function expandMedia(
  ctx: ExpandContext,
  entry: StoredDocument,
  obj: JsonObject,
  jsonPath: string,
): Json {
  const media = obj.media as string
  const info = mediaInfo(ctx.absolute, media, ctx.mediaCache)
  if (!info) {
    // Served anyway (its URL answers 404), as a document with a lost asset would be.
    ctx.problems.push({
      file: entry.file,
      path: `${jsonPath}.media`,
      message: `names a media file that does not exist: media/${media}`,
      severity: 'warning',
    })
  }
  const url = `${MEDIA_TOKEN}/${encodeMediaPath(media)}`
  const rest = Object.fromEntries(
    Object.entries(obj).filter(([k]) => k !== 'media' && k !== 'crop'),
  )
  for (const [k, v] of Object.entries(rest)) rest[k] = expand(ctx, entry, v, `${jsonPath}.${k}`)
  if (obj.link_type === 'Media') {
    return {
      ...rest,
      link_type: 'Media',
      key: stableId(`media:${media}`),
      id: stableId(`media:${media}`),
      url,
      kind: info?.kind === 'image' ? 'image' : 'file',
      name: path.basename(media),
      size: String(info?.size ?? 0),
      ...(info?.width ? { width: String(info.width), height: String(info.height) } : {}),
    }
  }
  const origin: ImageOrigin = {
    url,
    width: info?.width ?? 0,
    height: info?.height ?? 0,
    raster: RASTER_MEDIA.test(media),
  }
  let crop: Crop | undefined
  if (obj.crop !== undefined && info) {
    const read = readCrop(obj.crop, origin)
    if (typeof read === 'string')
      ctx.problems.push({ file: entry.file, path: `${jsonPath}.crop`, message: read })
    else crop = read
  }
  const view = {
    id: stableId(`media:${media}`),
    alt: null,
    copyright: null,
    ...rest,
    ...imageView(origin, crop),
  }
  return rememberSource(view, { origin, crop })
}

/** The store's lookup tables: by type and language, by language, and the labels and tags. */
function indexDocuments(
  identified: Identified,
  repo: RepositoryFile,
): Pick<
  ContentStore,
  'types' | 'tags' | 'documents' | 'byId' | 'byType' | 'byLang' | 'byUid' | 'sorted'
> {
  const { stored } = identified
  const types: Record<string, string> = { ...repo.types }
  for (const entry of stored) types[entry.doc.type] ??= titleCase(entry.doc.type)
  const tags = [...new Set(stored.flatMap((e) => e.doc.tags))].sort()
  const byType = new Map<string, Map<string, StoredDocument[]>>()
  const byLang = new Map<string, StoredDocument[]>()
  for (const entry of stored) {
    const { type, lang } = entry.doc
    let langs = byType.get(type)
    if (!langs) byType.set(type, (langs = new Map()))
    pushTo(langs, lang, entry)
    pushTo(byLang, lang, entry)
  }
  return {
    types,
    tags,
    documents: stored,
    byId: identified.byId,
    byType,
    byLang,
    byUid: identified.byUid,
    sorted: new Map(),
  }
}

function stripShorthand(obj: JsonObject): JsonObject {
  const { key: _key, ...rest } = obj
  return rest
}

/** Images the image CDN renders (crops, sizes); others (SVG) are served as they are. */
const RASTER_MEDIA = /\.(png|jpe?g|webp|avif|gif)$/i

function encodeMediaPath(mediaPath: string): string {
  return mediaPath.split('/').map(encodeURIComponent).join('/')
}

/** Prismic's slug: lower case, accents dropped, words joined by dashes. */
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
