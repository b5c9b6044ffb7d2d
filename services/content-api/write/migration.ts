import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import {
  loadContent,
  prismicTimestamp,
  stableId,
  type ContentStore,
  type Json,
  type JsonObject,
} from '../store'
import { formatProblems, loadModels, validateContent } from '../validate'
import { readImageUrl } from '../images/field'
import { assetPaths } from './assets'
import { limitWrites, requireWriteToken, type Refuse } from './auth'
import { listFiles, readJsonOr, writeJsonAtomic } from './files'

/**
 * Stand-in for Prismic's Migration API (https://prismic.io/docs/migration-api-technical-reference),
 * served under `<origin>/migration/` (the write client's `migrationAPIEndpoint`).
 *
 * As on Prismic, created and updated documents go into a migration release, not into published
 * content: here `.migration-release/documents/<type>/<key>/<lang>.json` inside the content folder
 * (a dot folder, which the content loader skips). `POST /migration-release/publish` (the client's
 * `publishMigrationRelease`) moves them into `documents/`; with `publishMigrations`, the stand-in
 * does so by itself as soon as every document created in the release has received its data.
 * Either way it publishes only a release that leaves the whole repository valid, and it moves the
 * files within one turn of the event loop, so no request ever sees half a release.
 *
 * A document's id is the id the content API derives from its file (`stableId("type/key/lang")`),
 * so ids returned here are the ids served once published.
 */

const RELEASE = '.migration-release'

type ReleaseState = {
  /** Documents created in the release whose data has not been sent yet (the client's first pass). */
  pending: string[]
  titles: Record<string, string>
}

type Located = { type: string; key: string; lang: string; rel: string; published: boolean }

/**
 * The Migration API's errors carry `{ message }`; its authorizer answers 403 with `{ Message }`
 * (the official client reads both: WriteClient#handleMigrationAPIError).
 */
const refuse: Refuse = (c, why, message) => {
  if (why === 'missing-repository') return c.json({ message }, 400)
  if (why === 'rate-limited') return c.json({ message }, 429)
  if (why === 'missing-token') return c.json({ message }, 401)
  return c.json({ Message: `${message} with an explicit deny` }, 403)
}

class MigrationError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message)
  }
}

export type MigrationApiOptions = {
  contentDir: string
  modelsDir: string
  writeToken?: string
  publishMigrations?: boolean
  changed: () => void
}

/** Creates the Migration API stand-in over `contentDir`. */
export function createMigrationApi(options: MigrationApiOptions): Hono {
  const dir = options.contentDir
  const stateFile = path.join(dir, RELEASE, 'release.json')
  const readState = () => readJsonOr<ReleaseState>(stateFile, { pending: [], titles: {} })

  const app = new Hono()
  app.use('*', requireWriteToken({ writeToken: options.writeToken, refuse }))
  app.use('*', limitWrites(refuse))
  app.onError((error, c) => {
    if (error instanceof MigrationError) return c.json({ message: error.message }, error.status)
    throw error
  })

  // POST /documents → 201 `{ id, title, type, lang, uid }` (PostDocumentResult in the client).
  app.post('/documents', async (c) => {
    const body = await readBody(c)
    const type = stringField(body, 'type')
    const lang = stringField(body, 'lang')
    const title = typeof body.title === 'string' ? body.title : ''
    const model = loadModels(options.modelsDir).customTypes.get(type)?.model
    if (!model)
      throw new MigrationError(
        400,
        `Unknown type "${type}": the repository has no such custom type.`,
      )
    checkLanguage(dir, lang)
    const withUid = hasUidField(model)
    const uid = typeof body.uid === 'string' && body.uid ? body.uid : undefined
    if (withUid && !uid) throw new MigrationError(400, `Documents of type "${type}" need a uid.`)
    if (!withUid && uid) throw new MigrationError(400, `Documents of type "${type}" have no uid.`)
    const all = locateAll(dir)
    const single = model.repeatable === false
    const key = keyForNewDocument(all, type, single, uid, body.alternate_language_id)
    assertFree(dir, all, { type, lang, key, uid, single })
    const id = stableId(`${type}/${key}/${lang}`)
    const data = toContentData(dir, all, body.data, '$.data')
    writeJsonAtomic(path.join(dir, RELEASE, 'documents', type, key, `${lang}.json`), {
      ...(uid ? { uid } : {}),
      tags: tagsOf(body),
      data,
    })
    const state = readState()
    state.pending.push(id)
    state.titles[id] = title
    writeJsonAtomic(stateFile, state)
    return c.json({ id, title, type, lang, ...(uid ? { uid } : {}) }, 201)
  })

  // PUT /documents/:id → 200 (WriteClient#updateDocument expects 200, and NotFoundError on 404).
  app.put('/documents/:id', async (c) => {
    const id = c.req.param('id')
    const body = await readBody(c)
    const all = locateAll(dir)
    const doc = all.get(id)
    if (!doc) throw new MigrationError(404, `Document ${id} not found.`)
    const current = readDoc(dir, doc)
    const uid = typeof body.uid === 'string' && body.uid ? body.uid : current.uid
    const data = toContentData(dir, all, body.data, '$.data')
    writeJsonAtomic(path.join(dir, RELEASE, 'documents', doc.rel), {
      ...(uid ? { uid } : {}),
      tags: Array.isArray(body.tags) ? tagsOf(body) : (current.tags ?? []),
      ...(current.first_publication_date
        ? { first_publication_date: current.first_publication_date }
        : {}),
      data,
    })
    const state = readState()
    state.pending = state.pending.filter((p) => p !== id)
    if (typeof body.title === 'string') state.titles[id] = body.title
    writeJsonAtomic(stateFile, state)
    if (options.publishMigrations && state.pending.length === 0) {
      const outcome = publish(options)
      if (!outcome.ok) console.error(`Migration release not published yet:\n${outcome.report}`)
    }
    return c.json(
      {
        id,
        title: state.titles[id] ?? '',
        type: doc.type,
        lang: doc.lang,
        ...(uid ? { uid } : {}),
      },
      200,
    )
  })

  // POST /migration-release/publish → 202 `{ totalItems }` (WriteClient#publishMigrationRelease).
  // A release that would leave the repository invalid answers 400 with the content check's
  // report (Facet's choice: Prismic's reference does not describe this failure).
  app.post('/migration-release/publish', (c) => {
    const outcome = publish(options)
    if (!outcome.ok) return c.json({ message: outcome.report }, 400)
    return c.json({ totalItems: outcome.published }, 202)
  })

  return app
}

/**
 * Publishes the migration release: validates the repository as it would be, then moves every
 * release file into `documents/` with its publication dates, synchronously.
 */
export function publish(
  options: Pick<MigrationApiOptions, 'contentDir' | 'modelsDir' | 'changed'>,
): { ok: true; published: number } | { ok: false; report: string } {
  const dir = options.contentDir
  const releaseDocs = path.join(dir, RELEASE, 'documents')
  const files = listFiles(releaseDocs)
  const state = readJsonOr<ReleaseState>(path.join(dir, RELEASE, 'release.json'), {
    pending: [],
    titles: {},
  })
  if (state.pending.length > 0)
    return {
      ok: false,
      report: `${state.pending.length} document(s) in the migration release were created but never given their data: ${state.pending.join(', ')}`,
    }
  if (files.length === 0) return { ok: true, published: 0 }
  const report = validateWithRelease(dir, options.modelsDir, files)
  if (report) return { ok: false, report }
  const now = prismicTimestamp(Date.now())
  for (const rel of files) {
    const target = path.join(dir, 'documents', rel)
    const next = readJsonOr<JsonObject>(path.join(releaseDocs, rel), {})
    const before = readJsonOr<JsonObject | undefined>(target, undefined)
    // Publishing stamps the dates, as Prismic does: the first stays, the last is now.
    const { data, ...rest } = next
    writeJsonAtomic(target, {
      ...rest,
      first_publication_date: before?.first_publication_date ?? now,
      last_publication_date: now,
      data: data ?? {},
    })
  }
  rmSync(path.join(dir, RELEASE), { recursive: true, force: true })
  options.changed()
  return { ok: true, published: files.length }
}

/**
 * Runs `read` on a temporary content folder holding the repository with the release applied:
 * published documents, then release documents over them, the same `repository.json` and media.
 */
function withReleaseView<T>(dir: string, releaseFiles: string[], read: (view: string) => T): T {
  const view = mkdtempSync(path.join(tmpdir(), 'facet-release-'))
  try {
    if (existsSync(path.join(dir, 'repository.json')))
      cpSync(path.join(dir, 'repository.json'), path.join(view, 'repository.json'))
    if (existsSync(path.join(dir, 'media')))
      symlinkSync(path.join(path.resolve(dir), 'media'), path.join(view, 'media'))
    mkdirSync(path.join(view, 'documents'))
    cpSync(path.join(dir, 'documents'), path.join(view, 'documents'), { recursive: true })
    for (const rel of releaseFiles) {
      mkdirSync(path.dirname(path.join(view, 'documents', rel)), { recursive: true })
      cpSync(path.join(dir, RELEASE, 'documents', rel), path.join(view, 'documents', rel))
    }
    return read(view)
  } finally {
    rmSync(view, { recursive: true, force: true })
  }
}

/** The content check's report for the repository with the release applied, or '' when valid. */
function validateWithRelease(dir: string, modelsDir: string, releaseFiles: string[]): string {
  return withReleaseView(dir, releaseFiles, (view) => {
    const store = loadContent(view)
    const problems = [...store.problems, ...validateContent(store, modelsDir)]
    return problems.length > 0
      ? formatProblems(problems, 'with the migration release').replaceAll(view, dir)
      : ''
  })
}

/**
 * The migration release as the Content API serves it under its own ref (`isMasterRef: false`):
 * the published documents with the release's versions over them, as a Prismic release is. It
 * is served as it is, drafts and all (as Prismic serves a release to a token allowed to see it);
 * only publishing checks it. Rebuilt when a release file changes.
 */
export function createReleaseView(dir: string): () => ContentStore | undefined {
  let cached: { signature: string; store: ContentStore } | undefined
  return () => {
    const root = path.join(dir, RELEASE, 'documents')
    const files = listFiles(root)
    if (files.length === 0) return undefined
    const signature = files
      .map((rel) => `${rel}:${statSync(path.join(root, rel)).mtimeMs}`)
      .join('|')
    if (cached?.signature !== signature) {
      const store = withReleaseView(dir, files, (view) => loadContent(view))
      // Media stay where the published repository serves them.
      store.dir = path.resolve(dir)
      cached = { signature, store }
    }
    return cached.store
  }
}

/** Every document, published or in the release (the release's version wins), by id. */
function locateAll(dir: string): Map<string, Located> {
  const out = new Map<string, Located>()
  const add = (root: string, published: boolean) => {
    for (const rel of listFiles(root)) {
      const [type, key, file] = rel.split('/')
      if (!type || !key || !file?.endsWith('.json')) continue
      const lang = file.slice(0, -5)
      const pinned = readJsonOr<{ id?: unknown }>(path.join(root, rel), {}).id
      const id = typeof pinned === 'string' && pinned ? pinned : stableId(`${type}/${key}/${lang}`)
      out.set(id, { type, key, lang, rel, published })
    }
  }
  add(path.join(dir, 'documents'), true)
  add(path.join(dir, RELEASE, 'documents'), false)
  return out
}

type DocFile = { uid?: string; tags?: string[]; first_publication_date?: string; data?: JsonObject }

function readDoc(dir: string, doc: Located): DocFile {
  const root = doc.published ? 'documents' : path.join(RELEASE, 'documents')
  const release = path.join(dir, RELEASE, 'documents', doc.rel)
  return readJsonOr<DocFile>(existsSync(release) ? release : path.join(dir, root, doc.rel), {})
}

/**
 * The folder of a new document: its master-language document's for a translation, the type's
 * for a single type, else its uid (made unique within the type) or a new id.
 */
function keyForNewDocument(
  all: Map<string, Located>,
  type: string,
  single: boolean,
  uid: string | undefined,
  alternateId: Json | undefined,
): string {
  if (typeof alternateId === 'string' && alternateId) {
    const master = all.get(alternateId)
    if (!master || master.type !== type)
      throw new MigrationError(
        400,
        `alternate_language_id "${alternateId}" is not a document of type "${type}".`,
      )
    return master.key
  }
  if (single) return type
  return freeKey(all, type, uid ?? stableId(`${type}/${Date.now()}/${Math.random()}`))
}

/** Refuses a second document for one key and language, or a uid already used in that language. */
function assertFree(
  dir: string,
  all: Map<string, Located>,
  wanted: { type: string; lang: string; key: string; uid?: string; single: boolean },
): void {
  const { type, lang, key, uid, single } = wanted
  for (const [id, doc] of all) {
    if (doc.type !== type || doc.lang !== lang) continue
    if (doc.key === key)
      throw new MigrationError(
        400,
        single
          ? `The single type "${type}" already has a document in ${lang} (${id}).`
          : `A document of type "${type}" in ${lang} already exists for this key (${id}).`,
      )
    if (uid && readDoc(dir, doc).uid === uid)
      throw new MigrationError(400, `The uid "${uid}" is already used by ${id} (${type}, ${lang}).`)
  }
}

/** A key for a new translation group: the uid, or the uid and a number when another group has it. */
function freeKey(all: Map<string, Located>, type: string, wanted: string): string {
  const used = new Set([...all.values()].filter((d) => d.type === type).map((d) => d.key))
  const base = wanted.replace(/[^A-Za-z0-9_-]+/g, '-')
  let key = base
  for (let n = 2; used.has(key); n += 1) key = `${base}-${n}`
  return key
}

function checkLanguage(dir: string, lang: string): void {
  const repo = readJsonOr<{ languages?: { id: string }[] }>(path.join(dir, 'repository.json'), {})
  if (repo.languages?.length && !repo.languages.some((l) => l.id === lang))
    throw new MigrationError(
      400,
      `The language "${lang}" is not one of the repository's: ${repo.languages.map((l) => l.id).join(', ')}.`,
    )
}

function hasUidField(model: { json?: Record<string, Record<string, { type?: string }>> }): boolean {
  return Object.values(model.json ?? {}).some((tab) =>
    Object.values(tab).some((field) => field.type === 'UID'),
  )
}

async function readBody(c: Context): Promise<JsonObject> {
  const body = await c.req.json<unknown>().catch(() => undefined)
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new MigrationError(400, 'The body must be a JSON object.')
  return body as JsonObject
}

function stringField(body: JsonObject, name: string): string {
  const value = body[name]
  if (typeof value !== 'string' || !value) throw new MigrationError(400, `"${name}" is required.`)
  return value
}

function tagsOf(body: JsonObject): string[] {
  return Array.isArray(body.tags) ? body.tags.filter((t): t is string => typeof t === 'string') : []
}

// Keys the content API derives from a document link or an image; they are not stored.
const DERIVED_LINK_KEYS = new Set([
  'type',
  'tags',
  'lang',
  'slug',
  'uid',
  'first_publication_date',
  'last_publication_date',
  'url',
  'isBroken',
  'data',
])
const DERIVED_MEDIA_KEYS = new Set(['id', 'key', 'url', 'kind', 'name', 'size', 'width', 'height'])
const DERIVED_IMAGE_KEYS = new Set(['id', 'url', 'dimensions', 'edit'])

/**
 * Turns document data in the Migration API's shapes (those of the Content API, with asset and
 * document ids) into the content format's shorthands: images and media links name their file
 * (images with their `crop`), document links keep the target's id. An id that names nothing is a 400 naming the field.
 */
function toContentData(
  dir: string,
  all: Map<string, Located>,
  data: Json | undefined,
  at: string,
): JsonObject {
  if (data === undefined || data === null) return {}
  if (typeof data !== 'object' || Array.isArray(data))
    throw new MigrationError(400, `${at} must be an object.`)
  const assets = assetPaths(dir)
  const convert = (value: Json, where: string): Json => {
    if (Array.isArray(value)) return value.map((item, i) => convert(item, `${where}[${i}]`))
    if (!value || typeof value !== 'object') return value
    if (value.link_type === 'Document' && typeof value.id === 'string') {
      if (!all.has(value.id))
        throw new MigrationError(
          400,
          `${where} links to a document that does not exist: ${value.id}`,
        )
      return pick(value, (k) => !DERIVED_LINK_KEYS.has(k))
    }
    if (value.link_type === 'Media' && typeof value.id === 'string') {
      const media = assets.get(value.id)
      if (!media)
        throw new MigrationError(400, `${where} names an asset that does not exist: ${value.id}`)
      return { ...pick(value, (k) => !DERIVED_MEDIA_KEYS.has(k)), media }
    }
    if (isImage(value)) {
      const media = assets.get(value.id as string)
      if (!media)
        throw new MigrationError(
          400,
          `${where} names an asset that does not exist: ${String(value.id)}`,
        )
      const out: JsonObject = { ...(value.type === 'image' ? { type: 'image' } : {}), media }
      // The write client sends an editor's crop in the URL it builds from the image field
      // (`resolveMigrationImage`: the asset's URL with the field's query), so the crop is read
      // back from `rect` there; `dimensions` and `edit` follow from it and the model.
      const { crop } = typeof value.url === 'string' ? readImageUrl(value.url) : {}
      if (crop) out.crop = crop
      for (const [k, v] of Object.entries(value)) {
        if (DERIVED_IMAGE_KEYS.has(k) || k === 'type' || v === null) continue
        out[k] = k === 'alt' || k === 'copyright' ? v : convert(v, `${where}.${k}`)
      }
      return out
    }
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) out[k] = convert(v, `${where}.${k}`)
    return out
  }
  return convert(data, at) as JsonObject
}

/** An image field or a rich text image block: an asset id, and no slice or link marker. */
function isImage(value: JsonObject): boolean {
  if (typeof value.id !== 'string' || 'slice_type' in value || 'link_type' in value) return false
  if ('type' in value && value.type !== 'image') return false
  return (
    ['alt', 'copyright', 'dimensions', 'url', 'edit'].some((k) => k in value) ||
    value.type === 'image'
  )
}

function pick(value: JsonObject, keep: (key: string) => boolean): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([k]) => keep(k)))
}
