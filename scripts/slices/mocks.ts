// `npm run slices:mocks`: writes each slice's mocks.json, one mock per variation, in Slice
// Machine's own format (`SharedSliceContent`), from the sample content.
//
// For each variation, the fullest slice of that type and variation in the sample content (master
// language, documents in type then uid order; the first among equals) gives its text, images, links and 3D settings.
// What the sample content leaves empty comes from the mock already in mocks.json when it is
// readable, else from `@prismicio/mocks`' `SharedSliceMock.generate`, the generator Slice Machine
// uses for a new slice. Keys are derived from the slice, variation and field, so a second run
// writes the same bytes. The files are written through Slice Machine's manager, as its UI saves
// them (`updateSliceMocks`, then `updateSlice` with the unchanged model), so that a save in Slice
// Machine with no edit finds nothing to change.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { SharedSliceMock } from '@prismicio/mocks'
import { createContentApi } from '../../services/content-api/app'
import { checkSliceMocksOf } from '../../services/content-api/slice-mocks'
import type { ModelField } from '../../services/content-api/validate'
import { routes } from '../../src/prismicio'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }
type Variation = {
  id: string
  primary?: Record<string, ModelField>
  items?: Record<string, ModelField>
}
type SliceModel = { id: string; variations: Variation[] }
type ApiSlice = {
  slice_type: string
  variation: string
  primary: JsonObject
  items: JsonObject[]
  /** The title of the page the slice is on (as text), when the page has one. */
  pageTitle?: string
}
type Content = JsonObject & { __TYPE__: string }
type Mock = {
  __TYPE__: 'SharedSliceContent'
  variation: string
  primary: Record<string, Content>
  items: Content[]
}

const ROOT = process.cwd()
const LIBRARY = './src/slices'
const SLICES = path.join(ROOT, 'src', 'slices')
/**
 * The site's origin as Slice Machine knows it (its `localSliceSimulatorURL`): media and page URLs
 * in the mocks are absolute on it, because Slice Machine's mock editor parses every image URL
 * (`new URL(origin.url)` in its crop helper) and fails on a relative one. The in-process content
 * API answers under it, so its media URLs come out there.
 */
const ORIGIN = new URL(
  JSON.parse(readFileSync(path.join(ROOT, 'slicemachine.config.json'), 'utf8'))
    .localSliceSimulatorURL ?? 'http://localhost:3000/slice-simulator',
).origin

/** A UUID-shaped key derived from `seed`: stable from one run to the next. */
function keyOf(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** A URL made absolute on the site's origin (page paths from the route resolver, web links). */
function local(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${ORIGIN}${url}` : url
}

function isEmpty(value: Json | undefined): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') {
    if ('link_type' in value) return value.link_type === 'Any'
    return Object.keys(value).length === 0
  }
  return false
}

/** A link in the API's shape as Slice Machine stores it; `seed` names it. */
function link(field: ModelField, value: JsonObject, seed: string): Content {
  const stored = (v: JsonObject): Content => ({
    __TYPE__: 'LinkContent',
    key: keyOf(seed),
    value: v,
  })
  switch (value.link_type) {
    case 'Web':
      return stored({
        __TYPE__: 'ExternalLink',
        url: local(value.url as string),
        ...(value.target ? { target: value.target } : {}),
      })
    case 'Media':
      return stored({
        __TYPE__: value.kind === 'image' ? 'ImageLink' : 'FileLink',
        id: value.id as string,
        url: local(value.url as string),
        name: value.name as string,
        kind: value.kind as string,
        size: String(value.size ?? 0),
        ...(value.kind === 'image'
          ? { width: String(value.width), height: String(value.height) }
          : {}),
      })
    case 'Document':
      // A mock carries no resolved URL: a field that may link anywhere keeps the page's path as
      // a web link, so the simulator's link still leads where the sample content's does.
      if (field.config?.select === 'document')
        return stored({ __TYPE__: 'DocumentLink', id: value.id as string })
      return stored({ __TYPE__: 'ExternalLink', url: local(value.url as string) })
    default:
      throw new Error(`${seed}: a ${String(value.link_type)} link has no mock form`)
  }
}

/** A span's link data (`hyperlink`) as Slice Machine stores it, without the field's `key`. */
function spanLink(value: JsonObject, seed: string): JsonObject {
  return link({ type: 'Link' }, value, seed).value as JsonObject
}

function richText(blocks: JsonObject[], seed: string): Content {
  return {
    __TYPE__: 'StructuredTextContent',
    value: blocks.map((block, i) => {
      if (typeof block.text !== 'string')
        throw new Error(`${seed}[${i}]: a ${String(block.type)} block has no mock form here`)
      const spans = (block.spans as JsonObject[]).map((span, j) => ({
        start: span.start,
        end: span.end,
        type: span.type,
        ...(span.type === 'hyperlink'
          ? { data: spanLink(span.data as JsonObject, `${seed}[${i}].${j}`) }
          : {}),
        ...(span.type === 'label' ? { data: (span.data as JsonObject).label } : {}),
      }))
      return { type: block.type, content: { text: block.text, ...(spans.length ? { spans } : {}) } }
    }),
  }
}

function image(value: JsonObject): Content {
  const { width, height } = value.dimensions as { width: number; height: number }
  const edit = value.edit as { x: number; y: number; zoom: number; background: string }
  const url = local(value.url as string)
  return {
    __TYPE__: 'ImageContent',
    origin: { id: value.id as string, url: url.replace(/\?.*$/, ''), width, height },
    width,
    height,
    edit: { zoom: edit.zoom, crop: { x: edit.x, y: edit.y }, background: edit.background },
    url,
    ...(value.alt ? { alt: value.alt } : {}),
    ...(value.copyright ? { credits: value.copyright } : {}),
    thumbnails: {},
  }
}

/** One field of the sample content as Slice Machine stores it, or undefined when it is empty. */
function toContent(field: ModelField, value: Json | undefined, seed: string): Content | undefined {
  if (isEmpty(value)) return undefined
  switch (field.type) {
    case 'Text':
    case 'Select':
    case 'Color':
    case 'Date':
    case 'Timestamp':
    case 'Number':
      return { __TYPE__: 'FieldContent', type: field.type, value: String(value) }
    case 'Boolean':
      return { __TYPE__: 'BooleanContent', value: value as boolean }
    case 'StructuredText':
      return richText(value as JsonObject[], seed)
    case 'Image':
      return image(value as JsonObject)
    case 'Link':
      return link(field, value as JsonObject, seed)
    case 'Group':
      return {
        __TYPE__: 'GroupContentType',
        value: (value as JsonObject[]).map((item, i) => ({
          __TYPE__: 'GroupItemContent',
          key: keyOf(`${seed}[${i}]`),
          value: Object.entries(field.config?.fields ?? {}).flatMap(([name, sub]) => {
            const content = toContent(sub, item[name], `${seed}[${i}].${name}`)
            return content ? [[name, content]] : []
          }),
        })),
      }
    default:
      throw new Error(`${seed}: a ${String(field.type)} field has no mock form here`)
  }
}

/** Every slice of the sample content in the master language, in a stable order. */
async function sampleSlices(): Promise<ApiSlice[]> {
  const api = createContentApi({
    contentDir: path.join(ROOT, 'content'),
    modelsDir: ROOT,
    basePath: '/local/prismic',
  })
  try {
    const client = prismic.createClient(`${ORIGIN}/local/prismic/api/v2`, {
      routes,
      fetch: (input, init) => api.fetch(new Request(input as string, init as RequestInit)),
    })
    const repository = await client.getRepository()
    const master = repository.languages.find((l) => l.is_master)?.id ?? repository.languages[0].id
    const documents = await client.dangerouslyGetAll({ lang: master })
    documents.sort((a, b) =>
      `${a.type}/${a.uid ?? a.id}`.localeCompare(`${b.type}/${b.uid ?? b.id}`),
    )
    return documents.flatMap((doc) => {
      const data = doc.data as Record<string, unknown>
      const title = Array.isArray(data.title)
        ? prismic.asText(data.title as prismic.RichTextField)
        : typeof data.title === 'string'
          ? data.title
          : ''
      return Object.values(data).flatMap((value) =>
        Array.isArray(value)
          ? value
              .filter((v): v is ApiSlice => !!v && typeof v === 'object' && 'slice_type' in v)
              .map((slice) => (title ? { ...slice, pageTitle: title } : slice))
          : [],
      )
    })
  } finally {
    api.close()
  }
}

/** The mocks now in mocks.json, when Slice Machine can read them. */
function currentMocks(name: string, model: SliceModel): Mock[] {
  const file = path.join(SLICES, name, 'mocks.json')
  if (!existsSync(file)) return []
  try {
    const mocks = JSON.parse(readFileSync(file, 'utf8'))
    return checkSliceMocksOf(model, mocks, file).length === 0 ? mocks : []
  } catch {
    return []
  }
}

/** The mock of one variation: the sample content's fields over the current or a generated mock. */
function mockOf(
  model: SliceModel,
  variation: Variation,
  sample: ApiSlice | undefined,
  current: Mock[],
): Mock {
  const base =
    current.find((m) => m.variation === variation.id) ??
    (SharedSliceMock.generate(model as never, {
      type: 'SharedSlice',
      variation: variation.id,
    }) as unknown as Mock)
  const primary: Record<string, Content> = {}
  for (const [name, field] of Object.entries(variation.primary ?? {})) {
    const seed = `${model.id}/${variation.id}/${name}`
    // A slice's empty `heading` shows its page's title on the site (the Hero, first on its page,
    // has the page title as its h1): the mock takes that title, which is what a visitor reads.
    const value =
      name === 'heading' && field.type === 'Text' && isEmpty(sample?.primary[name])
        ? sample?.pageTitle
        : sample?.primary[name]
    const fromSample = sample && toContent(field, value, seed)
    const content = fromSample ?? base.primary[name]
    if (content) primary[name] = fromSample ? content : rekey(content, seed)
  }
  if (Object.keys(variation.items ?? {}).length > 0)
    throw new Error(`${model.id}/${variation.id}: repeatable zone items have no mock form here`)
  return { __TYPE__: 'SharedSliceContent', variation: variation.id, primary, items: [] }
}

/** A kept or generated mock's field with stable keys and absolute URLs. */
function rekey(content: Content, seed: string): Content {
  const json = JSON.parse(JSON.stringify(content)) as Content
  let n = 0
  const walk = (value: Json) => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') {
      if (typeof value.key === 'string') value.key = keyOf(`${seed}#${n++}`)
      // A mock kept from an earlier run may hold a site-relative URL: absolute, as above.
      if (typeof value.url === 'string') value.url = local(value.url)
      Object.values(value).forEach(walk)
    }
  }
  walk(json)
  return json
}

type Manager = {
  plugins: { initPlugins: () => Promise<void> }
  slices: {
    updateSliceMocks: (args: {
      libraryID: string
      sliceID: string
      mocks: unknown[]
    }) => Promise<{ errors: unknown[] }>
    updateSlice: (args: { libraryID: string; model: unknown }) => Promise<{ errors: unknown[] }>
    readSlice: (args: {
      libraryID: string
      sliceID: string
    }) => Promise<{ model?: unknown; errors: unknown[] }>
  }
}

async function main() {
  // Slice Machine's manager, as its UI runs it (its ES build imports directories, which Node refuses).
  const require = createRequire(import.meta.url)
  const { createSliceMachineManager } = require('@slicemachine/manager') as {
    createSliceMachineManager: (args: { cwd: string }) => Manager
  }
  const manager = createSliceMachineManager({ cwd: ROOT })
  await manager.plugins.initPlugins()

  const samples = await sampleSlices()
  const names = readdirSync(SLICES)
    .filter((name) => existsSync(path.join(SLICES, name, 'model.json')))
    .sort()
  const missing: string[] = []
  for (const name of names) {
    const model = JSON.parse(
      readFileSync(path.join(SLICES, name, 'model.json'), 'utf8'),
    ) as SliceModel
    const current = currentMocks(name, model)
    const mocks = model.variations.map((variation) => {
      // The fullest slice of this variation in the sample content (the first, among equals).
      const filled = (s: ApiSlice) => Object.values(s.primary).filter((v) => !isEmpty(v)).length
      const sample = samples
        .filter((s) => s.slice_type === model.id && s.variation === variation.id)
        .reduce<ApiSlice | undefined>(
          (best, s) => (!best || filled(s) > filled(best) ? s : best),
          undefined,
        )
      if (!sample) missing.push(`${model.id}/${variation.id}`)
      return mockOf(model, variation, sample, current)
    })
    const problems = checkSliceMocksOf(model, mocks, name)
    if (problems.length > 0)
      throw new Error(
        `${name}: the mocks made do not fit the model:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
      )
    const written = await manager.slices.updateSliceMocks({
      libraryID: LIBRARY,
      sliceID: model.id,
      mocks,
    })
    // The model as Slice Machine reads it (its codec fills defaults, such as a link's `select`),
    // which is what its UI saves: saved raw, the next save would see a changed model and
    // replace every link of the mocks with a random one.
    const read = await manager.slices.readSlice({ libraryID: LIBRARY, sliceID: model.id })
    const saved = await manager.slices.updateSlice({ libraryID: LIBRARY, model: read.model })
    const errors = [...written.errors, ...read.errors, ...saved.errors]
    if (errors.length > 0)
      throw new Error(`${name}: Slice Machine refused the mocks: ${errors.map(String).join('; ')}`)
  }
  console.log(
    `slices:mocks: ${names.length} slices written${missing.length ? `; not in the sample content, generated: ${missing.join(', ')}` : ''}`,
  )
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
