import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import * as prismic from '@prismicio/client'
import * as customTypes from '@prismicio/custom-types-client'
import {
  loadContent,
  MEDIA_TOKEN,
  type ContentStore,
  type Json,
  type JsonObject,
  type StoredDocument,
} from '../../services/content-api/store'
import {
  defaultModelsDir,
  formatProblems,
  loadModels,
  validateContent,
} from '../../services/content-api/validate'
import { readImageUrl } from '../../services/content-api/images/field'
import { contentType } from '../../services/content-api/images/media'
import { resolveRepository, type RepositoryEndpoints } from './endpoints'
import { describeError, PrismicSyncError } from './errors'
import { watchedFetch, type WatchedFetch } from './http'
import { formatSeconds, Progress } from './progress'
import { readState, saveState, stateFileFor, type PushState } from './state'
import { screenshotUploader } from './screenshots'

/**
 * `npm run prismic:push`: the repo's models, media and documents into a Prismic repository,
 * through the official clients only: `@prismicio/custom-types-client` for models, and
 * `@prismicio/client`'s write client (`createWriteClient`, `createMigration`, `migrate`) for the
 * Asset and Migration APIs, which queues every write 1,500 ms apart and honours 429's
 * `Retry-After` (its `request()`), so the push keeps to the services' limits as the client does.
 */

export type PushOptions = {
  /** A repository name or a Content API URL (`…/api/v2`). */
  repository: string
  writeToken: string | undefined
  /** For reading published documents of a private repository. */
  accessToken?: string
  contentDir: string
  /** Where the models are (default: the content folder when self-contained, else `.`). */
  modelsDir?: string
  dryRun?: boolean
  /** Delete models that are in the repository but not here. */
  prune?: boolean
  /** Leave slice screenshots out (each variation keeps the model's own `imageUrl`). */
  noScreenshots?: boolean
  /** Publish the migration release at the end (`publishMigrationRelease`). */
  publish?: boolean
  /** Where the push remembers what it did (default `.data/prismic-push/<repository>.json`). */
  stateFile?: string
  log?: (line: string) => void
}

export type PushSummary = {
  models: {
    created: string[]
    updated: string[]
    identical: string[]
    deleted: string[]
    kept: string[]
  }
  media: { uploaded: number; skipped: number }
  documents: { created: number; updated: number; unchanged: number }
  published?: number
  rateLimited: number
  seconds: number
}

type Clients = {
  endpoints: RepositoryEndpoints
  write: prismic.WriteClient
  customTypes: customTypes.CustomTypesClient
  /** The write client's fetch (the client retries 429 itself). */
  fetch: WatchedFetch
  /** For the Custom Types client and our own reads, which do not retry 429 by themselves. */
  retrying: WatchedFetch
  token: string
}

/** Pushes `contentDir` and its models; throws `PrismicSyncError` with a sentence on failure. */
export async function pushRepository(options: PushOptions): Promise<PushSummary> {
  const log = options.log ?? ((line: string) => console.log(line))
  const started = Date.now()
  const endpoints = resolveRepository(options.repository)
  const token = options.writeToken
  if (!token)
    throw new PrismicSyncError('PRISMIC_WRITE_TOKEN is not set: the write APIs need a write token.')
  const modelsDir = options.modelsDir ?? defaultModelsDir(options.contentDir)
  const store = validatedContent(options.contentDir, modelsDir)
  const stateFile =
    options.stateFile ?? stateFileFor(endpoints.standalone ? endpoints.origin : endpoints.name)
  const state = readState(stateFile)
  const save = () => {
    if (!options.dryRun) saveState(stateFile, state)
  }
  const fetch = watchedFetch(log, { onSuccess: recordCreated(store, state, save) })
  const retrying = watchedFetch(log, { retry429: true })
  const clients: Clients = {
    endpoints,
    token,
    fetch,
    retrying,
    write: prismic.createWriteClient(endpoints.name, {
      documentAPIEndpoint: endpoints.contentApi,
      migrationAPIEndpoint: endpoints.migrationApi,
      assetAPIEndpoint: endpoints.assetApi,
      writeToken: token,
      accessToken: options.accessToken,
      fetch,
    }),
    customTypes: customTypes.createClient({
      repositoryName: endpoints.name,
      endpoint: endpoints.customTypesApi,
      token,
      fetch: retrying,
    }),
  }
  const prefix = options.dryRun ? '(dry run) ' : ''
  log(`${prefix}Pushing ${store.dir} to ${endpoints.contentApi}`)

  await checkLanguages(clients, store)
  const models = await pushModels(clients, modelsDir, options, log)
  const usedMedia = mediaUsedBy(store)
  const media = await planMedia(clients, store, state, usedMedia, log)
  const documents = planDocuments(store, state, await publishedDocuments(clients))
  // Each new document takes two writes (created empty, then given its data), as migrate() does.
  const progress = new Progress(
    media.upload.length + 2 * documents.creates + documents.updates,
    log,
  )
  log(`${prefix}Media: ${media.upload.length} to upload, ${media.skip} already in the repository.`)
  log(
    `${prefix}Documents: ${documents.creates} to create, ${documents.updates} to update, ${documents.unchanged} unchanged.`,
  )
  const summary: PushSummary = {
    models,
    media: { uploaded: media.upload.length, skipped: media.skip },
    documents: {
      created: documents.creates,
      updated: documents.updates,
      unchanged: documents.unchanged,
    },
    rateLimited: 0,
    seconds: 0,
  }
  if (options.dryRun) {
    for (const rel of media.upload) log(`  would upload media/${rel}`)
    for (const plan of documents.plans)
      if (plan.action !== 'unchanged') log(`  would ${plan.action} ${fileOf(plan.entry)}`)
  } else {
    await uploadMedia(clients, store, state, media, progress, save)
    await migrateDocuments(clients, store, state, media.assets, documents, progress, save)
    if (options.publish) {
      const { totalItems } = await clients.write.publishMigrationRelease().catch((error) => {
        throw new PrismicSyncError(
          `Publishing the migration release failed: ${describeError(error)}`,
        )
      })
      summary.published = totalItems
    }
  }
  summary.rateLimited = fetch.rateLimited() + retrying.rateLimited()
  summary.seconds = (Date.now() - started) / 1000
  logSummary(summary, endpoints, options, log)
  return summary
}

function validatedContent(contentDir: string, modelsDir: string): ContentStore {
  const store = loadContent(contentDir)
  const problems = [...store.problems, ...validateContent(store, modelsDir)]
  if (problems.length > 0)
    throw new PrismicSyncError(`Nothing was pushed. ${formatProblems(problems, store.dir)}`)
  return store
}

/**
 * Records each created document's and asset's id the moment the service answers, before the
 * client goes on: a push killed right after a create still knows, when run again, that the
 * document exists (the Migration API has no way to look documents up).
 */
function recordCreated(
  store: ContentStore,
  state: PushState,
  save: () => void,
): (request: string, response: Response) => Promise<void> {
  return async (request, response) => {
    if (/^POST .*\/documents$/.test(request) && response.status === 201) {
      const created = (await response.json()) as {
        id: string
        type: string
        lang: string
        uid?: string
      }
      const entry = store.documents.find(
        (e) =>
          e.doc.type === created.type &&
          e.doc.lang === created.lang &&
          (e.doc.uid ?? undefined) === (created.uid ?? undefined),
      )
      if (entry) state.documents[stateKey(entry)] = { id: created.id }
      save()
    } else if (/^POST .*\/assets$/.test(request) && response.status === 200) {
      const asset = (await response.json()) as { id: string; filename: string }
      state.assets[asset.filename] = asset.id
      save()
    }
  }
}

/** Prismic creates documents only in the repository's languages, set in its settings. */
async function checkLanguages(clients: Clients, store: ContentStore): Promise<void> {
  const repository = await clients.write.getRepository().catch((error) => {
    throw new PrismicSyncError(
      `Reading the repository at ${clients.endpoints.contentApi} failed: ${describeError(error, 'PRISMIC_ACCESS_TOKEN')}`,
    )
  })
  const remote = repository.languages.map((l) => l.id)
  const missing = store.languages.map((l) => l.id).filter((id) => !remote.includes(id))
  if (missing.length > 0)
    throw new PrismicSyncError(
      `The repository has no language ${missing.join(', ')} (it has: ${remote.join(', ') || 'none'}). Add it in the repository's settings first.`,
    )
}

/** Slices first (custom types name them), then custom types: create, update, or leave alone. */
async function pushModels(
  clients: Clients,
  modelsDir: string,
  options: PushOptions,
  log: (line: string) => void,
): Promise<PushSummary['models']> {
  const local = loadModels(modelsDir)
  const out: PushSummary['models'] = {
    created: [],
    updated: [],
    identical: [],
    deleted: [],
    kept: [],
  }
  const ct = clients.customTypes
  const screenshots = screenshotUploader({
    endpoints: clients.endpoints,
    token: clients.token,
    fetch: clients.retrying,
    dryRun: options.dryRun,
  })
  const kinds = [
    {
      label: 'slice',
      local: local.slices,
      remote: () => ct.getAllSharedSlices(),
      insert: (m: object) => ct.insertSharedSlice(m as prismic.SharedSliceModel),
      update: (m: object) => ct.updateSharedSlice(m as prismic.SharedSliceModel),
      remove: (id: string) => ct.removeSharedSlice(id),
    },
    {
      label: 'custom type',
      local: local.customTypes,
      remote: () => ct.getAllCustomTypes(),
      insert: (m: object) => ct.insertCustomType(m as prismic.CustomTypeModel),
      update: (m: object) => ct.updateCustomType(m as prismic.CustomTypeModel),
      remove: (id: string) => ct.removeCustomType(id),
    },
  ]
  for (const kind of kinds) {
    const remote = await kind.remote().catch((error) => {
      throw new PrismicSyncError(
        `Reading the repository's ${kind.label}s failed: ${describeError(error)}`,
      )
    })
    const byId = new Map(remote.map((m) => [m.id, m as object]))
    for (const [id, local] of kind.local) {
      const { file } = local
      const there = byId.get(id)
      // A slice's variations point at its screenshots, uploaded first as Slice Machine does.
      const model =
        kind.label === 'slice' && !options.noScreenshots
          ? await screenshots.withScreenshots(
              local.model as never,
              path.join(modelsDir, file),
              there as never,
            )
          : local.model
      const action = !there ? 'create' : isDeepStrictEqual(there, model) ? 'identical' : 'update'
      log(
        `${options.dryRun && action !== 'identical' ? 'would ' : ''}${action} ${kind.label} ${id} (${file})`,
      )
      if (action === 'identical') {
        out.identical.push(id)
        continue
      }
      if (!options.dryRun) {
        await (action === 'create' ? kind.insert(model) : kind.update(model)).catch((error) => {
          throw new PrismicSyncError(
            `${file}: the Custom Types API refused it: ${describeError(error)}`,
          )
        })
      }
      ;(action === 'create' ? out.created : out.updated).push(id)
    }
    for (const id of byId.keys()) {
      if (kind.local.has(id)) continue
      if (!options.prune) {
        log(`keep ${kind.label} ${id}: only in the repository (--prune deletes it)`)
        out.kept.push(id)
        continue
      }
      log(`${options.dryRun ? 'would ' : ''}delete ${kind.label} ${id}`)
      if (!options.dryRun)
        await kind.remove(id).catch((error) => {
          throw new PrismicSyncError(`Deleting ${kind.label} ${id} failed: ${describeError(error)}`)
        })
      out.deleted.push(id)
    }
  }
  return out
}

/** The repository's published documents, to recognise what an earlier push created. */
async function publishedDocuments(clients: Clients): Promise<prismic.PrismicDocument[]> {
  try {
    return await clients.write.dangerouslyGetAll({ lang: '*' })
  } catch (error) {
    throw new PrismicSyncError(
      `Reading the repository's documents from ${clients.endpoints.contentApi} failed: ${describeError(error, 'PRISMIC_ACCESS_TOKEN')}`,
    )
  }
}

/** An asset as the Asset API lists it (`width` and `height` for images). */
type Asset = {
  id: string
  url: string
  filename: string
  size: number
  width?: number
  height?: number
}

/**
 * Which used media files are not in the repository yet (by the recorded id, or by name and size),
 * and the assets of those that are, by media path.
 */
async function planMedia(
  clients: Clients,
  store: ContentStore,
  state: PushState,
  used: Set<string>,
  log: (line: string) => void,
): Promise<{ upload: string[]; skip: number; assets: Map<string, Asset> }> {
  const remote = await listAssets(clients)
  const byId = new Map(remote.map((a) => [a.id, a]))
  // Every push uploads media before documents, so a recorded asset that is gone means the
  // repository is not the one the record was made for (a new rehearsal folder, a reset
  // repository): its recorded documents are gone too.
  if (Object.values(state.assets).some((id) => !byId.has(id))) {
    log('The media library lacks assets an earlier push recorded: starting from an empty record.')
    state.assets = {}
    state.documents = {}
  }
  const upload: string[] = []
  const assets = new Map<string, Asset>()
  let skip = 0
  for (const rel of [...used].sort()) {
    const size = statSync(path.join(store.dir, 'media', rel)).size
    const known = state.assets[rel] ? byId.get(state.assets[rel]) : undefined
    const same =
      known ??
      remote.find(
        (a) => (a.filename === rel || a.filename === path.basename(rel)) && a.size === size,
      )
    if (same) {
      state.assets[rel] = same.id
      assets.set(rel, same)
      skip += 1
    } else upload.push(rel)
  }
  return { upload, skip, assets }
}

/** Every asset of the media library (Asset API `GET /assets`, paged by cursor). */
async function listAssets(clients: Clients): Promise<Asset[]> {
  const out: Asset[] = []
  let cursor: string | undefined
  do {
    const url = new URL(`${clients.endpoints.assetApi}/assets`)
    url.searchParams.set('limit', '100')
    if (cursor) url.searchParams.set('cursor', cursor)
    const response = await clients.retrying(url, {
      headers: { repository: clients.endpoints.name, authorization: `Bearer ${clients.token}` },
    })
    if (!response.ok) {
      const body = await response.text()
      throw new PrismicSyncError(
        `Listing the media library failed: ${response.status} ${response.status === 401 || response.status === 403 ? 'the token was refused; check PRISMIC_WRITE_TOKEN' : body.slice(0, 200)} (${url.origin})`,
      )
    }
    const page = (await response.json()) as { items: Asset[]; cursor?: string }
    out.push(...page.items)
    cursor = page.items.length > 0 ? page.cursor : undefined
    // "Requests are limited to one per second" (Asset API reference).
    if (cursor) await new Promise((resolve) => setTimeout(resolve, 1000))
  } while (cursor)
  return out
}

/**
 * Uploads through `migrate()` (the Asset API), recording each asset's id as soon as it exists and
 * adding the new assets to `media.assets`.
 */
async function uploadMedia(
  clients: Clients,
  store: ContentStore,
  state: PushState,
  media: { upload: string[]; assets: Map<string, Asset> },
  progress: Progress,
  save: () => void,
): Promise<void> {
  const { upload } = media
  if (upload.length === 0) return
  const migration = prismic.createMigration()
  const assets = upload.map((rel) => {
    const bytes = readFileSync(path.join(store.dir, 'media', rel))
    const type = contentType(rel)
    // The media path is the asset's file name, so a pull from Facet's stand-in finds it again.
    return { rel, asset: migration.createAsset(new File([bytes], rel, { type }), rel) }
  })
  const record = () => {
    for (const { rel, asset } of assets) {
      if (!asset.asset) continue
      state.assets[rel] = asset.asset.id
      media.assets.set(rel, asset.asset)
    }
    save()
  }
  let current = ''
  try {
    await clients.write.migrate(migration, {
      reporter: (event) => {
        if (event.type !== 'assets:creating') return
        record()
        current = assets[event.data.current - 1]!.rel
        progress.step('media', event.data.current, event.data.total, `media/${current}`)
      },
    })
  } catch (error) {
    throw new PrismicSyncError(
      `media/${current}: uploading failed: ${describeError(error)}${answered(clients)}`,
    )
  } finally {
    record()
  }
}

type DocumentPlan = {
  entry: StoredDocument
  action: 'create' | 'update' | 'unchanged'
  /** The remote id when the document already exists there. */
  remoteId?: string
  hash: string
  migrationDoc?: prismic.PrismicMigrationDocument
}

type DocumentsPlan = {
  plans: DocumentPlan[]
  creates: number
  updates: number
  unchanged: number
}

function stateKey(entry: StoredDocument): string {
  return `${entry.doc.type}/${entry.key}/${entry.doc.lang}`
}

function fileOf(entry: StoredDocument): string {
  return entry.file
}

/**
 * Decides per document: create it, update the one an earlier push created (recorded in the
 * state file, or found published by type, uid and language), or leave it when nothing changed.
 */
function planDocuments(
  store: ContentStore,
  state: PushState,
  published: prismic.PrismicDocument[],
): DocumentsPlan {
  const remote = new Map(published.map((d) => [`${d.type}\0${d.uid ?? ''}\0${d.lang}`, d.id]))
  const plans: DocumentPlan[] = store.documents.map((entry) => {
    const recorded = state.documents[stateKey(entry)]
    const remoteId =
      recorded?.id ?? remote.get(`${entry.doc.type}\0${entry.doc.uid ?? ''}\0${entry.doc.lang}`)
    const hash = createHash('sha256')
      .update(JSON.stringify([entry.doc.uid, entry.doc.tags, entry.doc.data]))
      .digest('base64url')
    return { entry, action: remoteId ? 'update' : 'create', remoteId, hash }
  })
  // Unchanged: sent before with the same data, and every document it links to still exists.
  const bySource = new Map(plans.map((p) => [p.entry.doc.id, p]))
  for (const plan of plans) {
    const recorded = state.documents[stateKey(plan.entry)]
    const targets = linkedIds(plan.entry.doc.data)
    if (
      plan.action === 'update' &&
      recorded?.sent === plan.hash &&
      targets.every((id) => bySource.get(id)?.remoteId)
    )
      plan.action = 'unchanged'
  }
  const count = (a: DocumentPlan['action']) => plans.filter((p) => p.action === a).length
  return {
    plans,
    creates: count('create'),
    updates: count('update'),
    unchanged: count('unchanged'),
  }
}

/** The media paths every document uses. */
function mediaUsedBy(store: ContentStore): Set<string> {
  const out = new Set<string>()
  for (const entry of store.documents) collectMedia(entry.doc.data, out)
  return out
}

function collectMedia(value: Json, out: Set<string>): void {
  if (typeof value === 'string') {
    if (value.startsWith(`${MEDIA_TOKEN}/`)) out.add(mediaPathOf(value))
  } else if (Array.isArray(value)) for (const item of value) collectMedia(item, out)
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) collectMedia(v, out)
}

/** The media path of a served image or media URL: its file under `media/`, query dropped. */
function mediaPathOf(url: string): string {
  return readImageUrl(url)
    .file.slice(MEDIA_TOKEN.length + 1)
    .split('/')
    .map(decodeURIComponent)
    .join('/')
}

function linkedIds(value: Json, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) linkedIds(item, out)
  else if (value && typeof value === 'object') {
    if (value.link_type === 'Document' && typeof value.id === 'string') out.push(value.id)
    else for (const v of Object.values(value)) linkedIds(v, out)
  }
  return out
}

/**
 * The migration of every document to create or update: masters first, so that a translation can
 * name its master-language document, and data whose links name the migration's documents (the
 * client puts in their new ids) or the ids of documents already there.
 */
function prepareMigration(
  store: ContentStore,
  assets: Map<string, Asset>,
  plan: DocumentsPlan,
): { migration: prismic.Migration; active: DocumentPlan[] } {
  const migration = prismic.createMigration()
  const bySource = new Map(plan.plans.map((p) => [p.entry.doc.id, p]))
  const master = store.masterLang
  const groups = new Map<string, DocumentPlan[]>()
  for (const p of plan.plans) {
    const key = `${p.entry.doc.type}/${p.entry.key}`
    groups.set(key, [...(groups.get(key) ?? []), p])
  }
  const active = plan.plans.filter((p) => p.action !== 'unchanged')
  active.sort((a, b) => Number(a.entry.doc.lang !== master) - Number(b.entry.doc.lang !== master))
  for (const p of active) {
    const { type, lang, uid, tags } = p.entry.doc
    const title = titleOf(p.entry)
    const base = { type, lang, uid: uid ?? undefined, tags, data: {} }
    if (p.remoteId) {
      p.migrationDoc = migration.updateDocument({ ...base, id: p.remoteId } as never, title)
      continue
    }
    const masterPlan = groups
      .get(`${type}/${p.entry.key}`)
      ?.find((other) => other.entry.doc.lang === master && other !== p)
    const masterLanguageDocument =
      masterPlan?.migrationDoc ??
      (masterPlan?.remoteId ? ({ id: masterPlan.remoteId } as never) : undefined)
    p.migrationDoc = migration.createDocument(base as never, title, { masterLanguageDocument })
  }
  const asset = (rel: string) => {
    const found = assets.get(rel)
    if (!found)
      throw new PrismicSyncError(`media/${rel}: the media file has no asset in the repository.`)
    return found
  }
  for (const p of active) {
    p.migrationDoc!.document.data = toMigrationData(p.entry.doc.data, {
      document: (id) => {
        const target = bySource.get(id)
        return target?.migrationDoc ?? target?.remoteId
      },
      asset,
      file: p.entry.file,
    }) as never
  }

  return { migration, active }
}

/** Creates and updates documents through `migrate()`, recording each new id at once. */
async function migrateDocuments(
  clients: Clients,
  store: ContentStore,
  state: PushState,
  assets: Map<string, Asset>,
  plan: DocumentsPlan,
  progress: Progress,
  save: () => void,
): Promise<void> {
  const { migration, active } = prepareMigration(store, assets, plan)
  const record = (done?: DocumentPlan) => {
    for (const p of active) {
      const id = p.migrationDoc?.document.id
      if (id) state.documents[stateKey(p.entry)] = { ...state.documents[stateKey(p.entry)], id }
    }
    if (done) state.documents[stateKey(done.entry)]!.sent = done.hash
    save()
  }
  let current: { plan: DocumentPlan; step: string } | undefined
  try {
    await clients.write.migrate(migration, {
      reporter: (event) => {
        if (event.type === 'documents:creating' || event.type === 'documents:updating') {
          if (current?.step === 'updating') record(current.plan)
          else record()
          const doc = event.data.document
          const p = active.find((candidate) => candidate.migrationDoc === doc)!
          current = { plan: p, step: event.type === 'documents:creating' ? 'creating' : 'updating' }
          progress.step(current.step, event.data.current, event.data.total, p.entry.file)
        } else if (event.type === 'documents:updated' && current) record(current.plan)
      },
    })
  } catch (error) {
    record()
    const where = current ? `${current.plan.entry.file} (${current.step})` : 'documents'
    throw new PrismicSyncError(
      `${where}: ${describeError(error)}${answered(clients)}. What was done is recorded; run the push again to go on.`,
    )
  }
  record()
}

/** The service's last error answer, for the message: " (the service answered 503 PUT …)". */
function answered(clients: Clients): string {
  const failure = clients.fetch.lastFailure()
  return failure ? ` (the service answered ${failure})` : ''
}

type Resolve = {
  document: (sourceId: string) => prismic.PrismicMigrationDocument | string | undefined
  asset: (mediaPath: string) => Asset
  file: string
}

const IMAGE_KEYS = new Set([
  'id',
  'url',
  'dimensions',
  'edit',
  'alt',
  'copyright',
  'type',
  'linkTo',
])

/**
 * The content API's shapes with local ids turned into the Migration API's: document links name
 * the migration document (the client puts in its new id), media links name the asset, and images
 * (each thumbnail too) are what the write client sends for an image it migrates.
 */
function toMigrationData(value: Json, resolve: Resolve): unknown {
  if (Array.isArray(value)) return value.map((item) => toMigrationData(item, resolve))
  if (!value || typeof value !== 'object') return value
  const text = typeof value.text === 'string' ? { text: value.text } : {}
  if (value.link_type === 'Document' && typeof value.id === 'string') {
    const target = resolve.document(value.id)
    if (!target)
      throw new PrismicSyncError(
        `${resolve.file}: links to a document that is not pushed: ${value.id}`,
      )
    return { link_type: 'Document', id: target, ...text }
  }
  const url = typeof value.url === 'string' ? value.url : ''
  if (url.startsWith(`${MEDIA_TOKEN}/`)) {
    const asset = resolve.asset(mediaPathOf(url))
    if (value.link_type === 'Media') return { link_type: 'Media', id: asset.id, ...text }
    const out: Record<string, unknown> = {
      ...(value.type === 'image' ? { type: 'image' } : {}),
      ...migrationImage(value, url, asset),
    }
    if (value.linkTo) out.linkTo = toMigrationData(value.linkTo, resolve)
    for (const [k, v] of Object.entries(value))
      if (!IMAGE_KEYS.has(k)) out[k] = toMigrationData(v, resolve)
    return out
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = toMigrationData(v, resolve)
  return out
}

/**
 * One image view as `resolveMigrationImage` in `@prismicio/client` sends it: the asset's id, its
 * URL with the view's query (the crop's `rect`, `w` and `h`), the asset's full size, the view's
 * `edit`, and the view's own alt text and copyright.
 */
function migrationImage(view: JsonObject, url: string, asset: Asset): JsonObject {
  const query = url.includes('?') ? url.slice(url.indexOf('?')) : ''
  return {
    id: asset.id,
    url: `${asset.url.split('?')[0]}${query}`,
    dimensions: asset.width
      ? { width: asset.width, height: asset.height ?? 0 }
      : (view.dimensions ?? null),
    edit: view.edit ?? { x: 0, y: 0, zoom: 1, background: 'transparent' },
    alt: view.alt ?? null,
    copyright: view.copyright ?? null,
  }
}

/** The editor's display title: the document's title field, else its uid or key. */
function titleOf(entry: StoredDocument): string {
  const title = entry.doc.data.title
  if (typeof title === 'string' && title) return title
  if (Array.isArray(title)) {
    const text = title
      .map((block) => (block as { text?: string })?.text ?? '')
      .join(' ')
      .trim()
    if (text) return text
  }
  return entry.doc.uid ?? entry.key
}

function logSummary(
  s: PushSummary,
  endpoints: RepositoryEndpoints,
  options: PushOptions,
  log: (line: string) => void,
): void {
  const m = s.models
  const done = (verb: string) =>
    options.dryRun ? `to ${verb}` : verb.endsWith('e') ? `${verb}d` : `${verb}ed`
  log(
    `${options.dryRun ? 'Dry run, nothing written. ' : ''}Models: ${m.created.length} ${done('create')}, ${m.updated.length} ${done('update')}, ${m.identical.length} identical, ${m.deleted.length} deleted${m.kept.length ? `, ${m.kept.length} only in the repository (kept)` : ''}.`,
  )
  log(`Media: ${s.media.uploaded} ${done('upload')}, ${s.media.skipped} already there.`)
  // "updated" counts documents that existed before this push.
  log(
    `Documents: ${s.documents.created} ${done('create')}, ${s.documents.updated} ${done('update')}, ${s.documents.unchanged} unchanged.`,
  )
  if (s.rateLimited)
    log(`The services asked to slow down ${s.rateLimited} time(s) (429); the push waited as asked.`)
  if (options.dryRun) return
  if (s.published !== undefined) log(`Published the migration release: ${s.published} document(s).`)
  else if (s.documents.created + s.documents.updated > 0)
    log(
      `The documents went into the repository's migration release: publish it in Prismic's Migration Releases tab, or run: npm run prismic:publish -- --repository ${endpoints.standalone ? endpoints.contentApi : endpoints.name} (a stand-in started with --publish-migrations has published it already).`,
    )
  log(`Done in ${formatSeconds(s.seconds)}.`)
}
