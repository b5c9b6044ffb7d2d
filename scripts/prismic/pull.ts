import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import * as customTypes from '@prismicio/custom-types-client'
import type { Json, JsonObject } from '../../services/content-api/store'
import { readImageUrl } from '../../services/content-api/images/field'
import { writeFileAtomic, writeJsonAtomic } from '../../services/content-api/write/files'
import { resolveRepository, type RepositoryEndpoints } from './endpoints'
import { describeError, PrismicSyncError } from './errors'
import { watchedFetch } from './http'
import { formatSeconds } from './progress'

/**
 * `npm run prismic:pull`: a repository into a content folder (docs/content.md) that
 * `content:check` accepts and the standalone content API serves. Documents come from the Content
 * API (every language), media files are downloaded, and the models come from the Custom Types
 * API when a write token is given (else the project's own models apply). Nothing the content API
 * derives is written: no ids, no expanded links or images, no empty fields.
 */

export type PullOptions = {
  repository: string
  out: string
  accessToken?: string
  /** With it, the models are pulled too (Custom Types API). */
  writeToken?: string
  log?: (line: string) => void
}

export type PullSummary = {
  documents: number
  languages: number
  media: number
  models: number
  seconds: number
}

type Group = { type: string; key: string; docs: prismic.PrismicDocument[] }

/** Pulls into `out`, which must not exist or be empty; the folder appears whole or not at all. */
export async function pullRepository(options: PullOptions): Promise<PullSummary> {
  const log = options.log ?? ((line: string) => console.log(line))
  const started = Date.now()
  const endpoints = resolveRepository(options.repository)
  if (existsSync(options.out) && readdirSync(options.out).length > 0)
    throw new PrismicSyncError(`--out ${options.out} is not empty; pull into a new folder.`)
  const fetch = watchedFetch(log, { retry429: true })
  const client = prismic.createClient(endpoints.name, {
    documentAPIEndpoint: endpoints.contentApi,
    accessToken: options.accessToken,
    fetch,
  })
  const read = async <T>(what: string, run: () => Promise<T>): Promise<T> =>
    run().catch((error) => {
      throw new PrismicSyncError(
        `Reading ${what} from ${endpoints.contentApi} failed: ${describeError(error, 'PRISMIC_ACCESS_TOKEN')}`,
      )
    })
  const repository = await read('the repository', () => client.getRepository())
  const documents = await read('the documents', () => client.dangerouslyGetAll({ lang: '*' }))
  const master = repository.languages[0]?.id
  log(
    `Pulling ${documents.length} documents in ${repository.languages.length} languages from ${endpoints.contentApi}`,
  )

  const parent = path.dirname(path.resolve(options.out))
  const staging = mkdtempSync(path.join(parent, `.${path.basename(options.out)}-`))
  try {
    writeJsonAtomic(path.join(staging, 'repository.json'), {
      ...(endpoints.standalone ? {} : { name: endpoints.name }),
      languages: repository.languages.map((l, i) => ({
        id: l.id,
        name: l.name,
        ...(i === 0 ? { master: true } : {}),
      })),
    })
    const groups = groupTranslations(documents, master)
    const media = new Map<string, string>()
    const place = mediaPlacer(endpoints, media)
    const groupOf = new Map<string, Group>()
    for (const group of groups) for (const doc of group.docs) groupOf.set(doc.id, group)
    const byId = new Map(documents.map((d) => [d.id, d]))
    for (const group of groups) {
      for (const doc of group.docs) {
        const file = `documents/${group.type}/${group.key}/${doc.lang}.json`
        const context: FromApi = { doc, file, byId, groupOf, master, place, log }
        writeJsonAtomic(path.join(staging, file), documentFile(doc, context))
      }
    }
    let downloaded = 0
    for (const [url, rel] of media) {
      downloaded += 1
      log(`  media ${downloaded} of ${media.size}: media/${rel}`)
      const response = await fetch(url).catch((error) => {
        throw new PrismicSyncError(
          `media/${rel}: downloading ${url} failed: ${describeError(error)}`,
        )
      })
      if (!response.ok)
        throw new PrismicSyncError(`media/${rel}: downloading ${url} answered ${response.status}`)
      writeFileAtomic(
        path.join(staging, 'media', rel),
        new Uint8Array(await response.arrayBuffer()),
      )
    }
    const models = options.writeToken ? await pullModels(endpoints, options.writeToken, staging) : 0
    if (existsSync(options.out)) rmSync(options.out, { recursive: true })
    renameSync(staging, options.out)
    const summary = {
      documents: documents.length,
      languages: repository.languages.length,
      media: media.size,
      models,
      seconds: (Date.now() - started) / 1000,
    }
    log(
      `Pulled ${summary.documents} documents, ${summary.media} media files${models ? `, ${models} models` : " (models: the project's own; set PRISMIC_WRITE_TOKEN to pull them)"} into ${options.out} in ${formatSeconds(summary.seconds)}.`,
    )
    return summary
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/**
 * Documents that are translations of each other share a key (their folder): the master-language
 * document's uid, the type's id for a single type, else the master document's id.
 */
function groupTranslations(
  documents: prismic.PrismicDocument[],
  master: string | undefined,
): Group[] {
  const seen = new Set<string>()
  const byId = new Map(documents.map((d) => [d.id, d]))
  const groups: Group[] = []
  const used = new Set<string>()
  for (const doc of documents) {
    if (seen.has(doc.id)) continue
    const docs = [
      doc,
      ...doc.alternate_languages
        .map((a) => byId.get(a.id))
        .filter((d): d is prismic.PrismicDocument => !!d),
    ]
    for (const d of docs) seen.add(d.id)
    const lead = docs.find((d) => d.lang === master) ?? docs[0]!
    let key =
      lead.uid ??
      (docs.every((d) => !d.uid) &&
      documents.filter((d) => d.type === doc.type).length === docs.length
        ? doc.type
        : lead.id)
    for (let n = 2; used.has(`${doc.type}/${key}`); n += 1) key = `${lead.uid ?? lead.id}-${n}`
    used.add(`${doc.type}/${key}`)
    groups.push({ type: doc.type, key, docs })
  }
  return groups
}

type FromApi = {
  doc: prismic.PrismicDocument
  file: string
  byId: Map<string, prismic.PrismicDocument>
  groupOf: Map<string, Group>
  master: string | undefined
  place: (url: string) => string
  log: (line: string) => void
}

function documentFile(doc: prismic.PrismicDocument, context: FromApi): JsonObject {
  const data: JsonObject = {}
  for (const [name, value] of Object.entries(doc.data as JsonObject)) {
    const converted = fromApi(value, context, `$.data.${name}`)
    if (!isEmpty(converted)) data[name] = converted
  }
  return {
    ...(doc.uid ? { uid: doc.uid } : {}),
    ...(doc.tags.length > 0 ? { tags: doc.tags } : {}),
    first_publication_date: doc.first_publication_date,
    ...(doc.last_publication_date !== doc.first_publication_date
      ? { last_publication_date: doc.last_publication_date }
      : {}),
    data,
  }
}

/** Values the content API fills in by itself when a field is left out (docs/content.md). */
function isEmpty(value: Json): boolean {
  if (value === null) return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') {
    const keys = Object.keys(value)
    return keys.length === 0 || (keys.length === 1 && value.link_type === 'Any')
  }
  return false
}

const LINK_KEYS_KEPT = new Set(['text', 'variant', 'target'])

/** The content API's shapes back into the content format's shorthands. */
function fromApi(value: Json, context: FromApi, at: string): Json {
  if (Array.isArray(value)) return value.map((item, i) => fromApi(item, context, `${at}[${i}]`))
  if (!value || typeof value !== 'object') return value
  const kept = Object.fromEntries(Object.entries(value).filter(([k]) => LINK_KEYS_KEPT.has(k)))
  if (value.link_type === 'Document' && typeof value.id === 'string') {
    const target = context.byId.get(value.id)
    const group = context.groupOf.get(value.id)
    if (!target || !group || value.isBroken) {
      context.log(`  ${context.file} ${at}: a broken link (${value.id}) is left empty`)
      return { link_type: 'Any' }
    }
    // The content format points a link at the target's translation in the linking document's
    // language, else at the master's; name the language only when that would pick another one.
    const implied = group.docs.some((d) => d.lang === context.doc.lang)
      ? context.doc.lang
      : context.master
    return {
      link_type: 'Document',
      type: group.type,
      key: group.key,
      ...(target.lang !== implied ? { lang: target.lang } : {}),
      ...kept,
    }
  }
  if (value.link_type === 'Media' && typeof value.url === 'string')
    return { link_type: 'Media', media: context.place(value.url), ...kept }
  if (typeof value.url === 'string' && 'dimensions' in value) {
    const { crop } = readImageUrl(value.url)
    const out: JsonObject = {
      ...(value.type === 'image' ? { type: 'image' } : {}),
      media: context.place(value.url),
      ...(crop ? { crop } : {}),
      ...(value.alt !== null && value.alt !== undefined ? { alt: value.alt } : {}),
      ...(value.copyright ? { copyright: value.copyright } : {}),
    }
    for (const [k, v] of Object.entries(value)) {
      if (['id', 'url', 'dimensions', 'edit', 'alt', 'copyright', 'type'].includes(k)) continue
      out[k] = fromApi(v, context, `${at}.${k}`)
    }
    return out
  }
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(value)) out[k] = fromApi(v, context, `${at}.${k}`)
  return out
}

/**
 * Where a media URL's file goes under `media/`: the path under a standalone API's `/media/`, or
 * the file name of a Prismic CDN URL (`…/<repo>/<asset id>_<name>?auto=…`), made unique.
 */
function mediaPlacer(
  endpoints: RepositoryEndpoints,
  media: Map<string, string>,
): (url: string) => string {
  const taken = new Set<string>()
  return (raw) => {
    const url = readImageUrl(raw).file
    const known = media.get(url)
    if (known) return known
    const local = `${endpoints.origin}/media/`
    let rel = url.startsWith(local)
      ? url.slice(local.length).split('/').map(decodeURIComponent).join('/')
      : decodeURIComponent(url.split('/').pop() ?? 'file').replace(/^[A-Za-z0-9-]+_/, '')
    rel = rel.replace(/[^A-Za-z0-9._/-]+/g, '-')
    const ext = path.extname(rel)
    for (let n = 2; taken.has(rel); n += 1)
      rel = `${rel.slice(0, rel.length - ext.length)}-${n}${ext}`
    taken.add(rel)
    media.set(url, rel)
    return rel
  }
}

/** The custom types and shared slices, as Slice Machine lays them out, with a config naming the library. */
async function pullModels(
  endpoints: RepositoryEndpoints,
  token: string,
  dir: string,
): Promise<number> {
  const client = customTypes.createClient({
    repositoryName: endpoints.name,
    endpoint: endpoints.customTypesApi,
    token,
    fetch: watchedFetch(() => {}, { retry429: true }),
  })
  const [types, slices] = await Promise.all([
    client.getAllCustomTypes(),
    client.getAllSharedSlices(),
  ]).catch((error) => {
    throw new PrismicSyncError(
      `Reading the models from ${endpoints.customTypesApi} failed: ${describeError(error)}`,
    )
  })
  for (const model of types)
    writeJsonAtomic(path.join(dir, 'customtypes', model.id, 'index.json'), model)
  for (const model of slices)
    writeJsonAtomic(path.join(dir, 'slices', model.id, 'model.json'), model)
  writeJsonAtomic(path.join(dir, 'slicemachine.config.json'), {
    repositoryName: endpoints.name,
    libraries: ['./slices'],
  })
  return types.length + slices.length
}
