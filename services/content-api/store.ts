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

export type ContentProblem = { file: string; path: string; message: string }

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

function listFiles(dir: string, base = dir): string[] {
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

/** Loads and derives every document of a content folder. Never throws for bad content: it reports. */
export function loadContent(dir: string): ContentStore {
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

  let repo: RepositoryFile = {}
  const repoFile = path.join(absolute, 'repository.json')
  if (existsSync(repoFile)) {
    const raw = readFileSync(repoFile)
    hash.update('repository.json\0').update(raw)
    repo = (readJson(repoFile, problems, 'repository.json') as RepositoryFile) ?? {}
  }

  type Pending = { raw: RawDocument; type: string; key: string; lang: string; file: string }
  const pending: Pending[] = []
  for (const rel of listFiles(path.join(absolute, 'documents'))) {
    const file = `documents/${rel}`
    const parts = rel.split('/')
    const full = path.join(absolute, file)
    const bytes = readFileSync(full)
    hash.update(file + '\0').update(bytes)
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
    const raw = parseJson(bytes.toString('utf8'), problems, file)
    if (raw === undefined) continue
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({ file, path: '$', message: 'must be a JSON object with "data"' })
      continue
    }
    for (const name of Object.keys(raw)) {
      if (!DOCUMENT_KEYS.has(name))
        problems.push({
          file,
          path: `$.${name}`,
          message: `is not a key of a document file (${[...DOCUMENT_KEYS].join(', ')}); fields go in "data"`,
        })
    }
    const { uid, tags } = raw as RawDocument
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
    pending.push({ raw: raw as RawDocument, type, key, lang, file })
  }
  for (const rel of listFiles(path.join(absolute, 'media'))) {
    hash.update(`media/${rel}\0`).update(String(statSync(path.join(absolute, 'media', rel)).size))
  }

  const ref = hash.digest('base64url').slice(0, 16)

  const langIds = [...new Set(pending.map((p) => p.lang))]
  const languages: Language[] = repo.languages?.length
    ? repo.languages.map((l, i) => ({
        id: l.id,
        name: l.name ?? LANGUAGE_NAMES[l.id] ?? l.id,
        is_master: l.master ?? i === 0,
      }))
    : (langIds.includes('en-us')
        ? ['en-us', ...langIds.filter((l) => l !== 'en-us')]
        : langIds
      ).map((id, i) => ({ id, name: LANGUAGE_NAMES[id] ?? id, is_master: i === 0 }))
  const masterLang = languages.find((l) => l.is_master)?.id ?? languages[0]?.id ?? 'en-us'

  // First pass: identities, so links can be resolved in the second.
  const stored: StoredDocument[] = []
  const groups = new Map<string, StoredDocument[]>()
  const byId = new Map<string, StoredDocument>()
  const byUid = new Map<string, StoredDocument[]>()
  const byTypeAll = new Map<string, StoredDocument[]>()
  for (const p of pending) {
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
    const doc: PrismicApiDocument = {
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
    }
    if (byId.has(id))
      problems.push({
        file,
        path: '$.id',
        message: `repeats the id "${id}" of ${byId.get(id)!.file}`,
      })
    const entry: StoredDocument = {
      doc,
      file,
      key,
      text: '',
      firstPublished: Number.isNaN(firstMs) ? 0 : firstMs,
      lastPublished: Number.isNaN(lastMs) ? 0 : lastMs,
      sortKeys: new Map(),
    }
    stored.push(entry)
    byId.set(id, entry)
    const groupKey = `${type}/${key}`
    const group = groups.get(groupKey)
    if (group) group.push(entry)
    else groups.set(groupKey, [entry])
    if (uid !== null) {
      const uidKey = `${type}\0${uid}`
      const sameUid = byUid.get(uidKey)
      if (sameUid) sameUid.push(entry)
      else byUid.set(uidKey, [entry])
    }
    const typeDocs = byTypeAll.get(type)
    if (typeDocs) typeDocs.push(entry)
    else byTypeAll.set(type, [entry])
  }

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

  // Second pass: expand shorthand links and images into Prismic's full shapes.
  const mediaCache = new Map<string, MediaInfo | null>()
  const resolveDocLink = (from: StoredDocument, link: JsonObject): StoredDocument | undefined => {
    if (typeof link.id === 'string' && byId.has(link.id)) return byId.get(link.id)
    const type = typeof link.type === 'string' ? link.type : undefined
    const lang = typeof link.lang === 'string' ? link.lang : from.doc.lang
    if (type && typeof link.key === 'string') {
      const group = groups.get(`${type}/${link.key}`) ?? []
      return (
        group.find((d) => d.doc.lang === lang) ??
        group.find((d) => d.doc.lang === masterLang) ??
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

  const expand = (entry: StoredDocument, value: Json, jsonPath: string): Json => {
    if (Array.isArray(value))
      return value.map((item, i) => expand(entry, item, `${jsonPath}[${i}]`))
    if (!value || typeof value !== 'object') return value
    const obj = value as JsonObject
    if (obj.link_type === 'Document' && !('isBroken' in obj && 'slug' in obj)) {
      const target = resolveDocLink(entry, obj)
      if (!target) {
        if (Object.keys(obj).length > 1) {
          problems.push({
            file: entry.file,
            path: jsonPath,
            message: `links to a document that does not exist: ${JSON.stringify(obj)}`,
          })
        }
        return Object.keys(obj).length > 1
          ? { link_type: 'Document', isBroken: true, ...stripShorthand(obj) }
          : { link_type: 'Any' }
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
    if (typeof obj.media === 'string') {
      const info = mediaInfo(absolute, obj.media, mediaCache)
      if (!info) {
        problems.push({
          file: entry.file,
          path: `${jsonPath}.media`,
          message: `names a media file that does not exist: media/${obj.media}`,
        })
      }
      const url = `${MEDIA_TOKEN}/${encodeMediaPath(obj.media)}`
      const rest = Object.fromEntries(
        Object.entries(obj).filter(([k]) => k !== 'media' && k !== 'crop'),
      )
      for (const [k, v] of Object.entries(rest)) rest[k] = expand(entry, v, `${jsonPath}.${k}`)
      if (obj.link_type === 'Media') {
        return {
          ...rest,
          link_type: 'Media',
          key: stableId(`media:${obj.media}`),
          id: stableId(`media:${obj.media}`),
          url,
          kind: info?.kind === 'image' ? 'image' : 'file',
          name: path.basename(obj.media),
          size: String(info?.size ?? 0),
          ...(info?.width ? { width: String(info.width), height: String(info.height) } : {}),
        }
      }
      const origin: ImageOrigin = {
        url,
        width: info?.width ?? 0,
        height: info?.height ?? 0,
        raster: RASTER_MEDIA.test(obj.media),
      }
      let crop: Crop | undefined
      if (obj.crop !== undefined && info) {
        const read = readCrop(obj.crop, origin)
        if (typeof read === 'string')
          problems.push({ file: entry.file, path: `${jsonPath}.crop`, message: read })
        else crop = read
      }
      const view = {
        id: stableId(`media:${obj.media}`),
        alt: null,
        copyright: null,
        ...rest,
        ...imageView(origin, crop),
      }
      return rememberSource(view, { origin, crop })
    }
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(obj)) out[k] = expand(entry, v, `${jsonPath}.${k}`)
    return out
  }

  for (const entry of stored) {
    entry.doc.data = expand(entry, entry.doc.data, '$.data') as JsonObject
    const text: string[] = []
    if (entry.doc.uid) text.push(entry.doc.uid)
    collectText(entry.doc.data, text)
    entry.text = text.join(' \n ').toLowerCase()
  }

  const types: Record<string, string> = { ...repo.types }
  for (const entry of stored) types[entry.doc.type] ??= titleCase(entry.doc.type)
  const tags = [...new Set(stored.flatMap((e) => e.doc.tags))].sort()
  const byType = new Map<string, Map<string, StoredDocument[]>>()
  const byLang = new Map<string, StoredDocument[]>()
  for (const entry of stored) {
    const { type, lang } = entry.doc
    let langs = byType.get(type)
    if (!langs) byType.set(type, (langs = new Map()))
    const list = langs.get(lang)
    if (list) list.push(entry)
    else langs.set(lang, [entry])
    const inLang = byLang.get(lang)
    if (inLang) inLang.push(entry)
    else byLang.set(lang, [entry])
  }

  return {
    dir: absolute,
    ref,
    languages,
    masterLang,
    types,
    repositoryTypes: { ...repo.types },
    tags,
    documents: stored,
    byId,
    byType,
    byLang,
    byUid,
    sorted: new Map(),
    problems,
    loadedAt: Date.now(),
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
