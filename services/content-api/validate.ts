import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  listReleases,
  loadContent,
  type ContentProblem,
  type ContentStore,
  type Json,
  type JsonObject,
  type StoredDocument,
  type FileCache,
} from './store'
import type { FilterSchema } from './query'
import { imageView, readCrop, sourceOf, type ViewConstraint } from './images/field'

/**
 * Checks documents against their Slice Machine models: `customtypes/<id>/index.json` and
 * `src/slices/<Name>/model.json` under `modelsDir`. Everything is derived from the model files;
 * no type, slice or field name is known here. Fields a document leaves out are filled with the
 * empty value Prismic returns for them (null, [], {}, `{ link_type: "Any" }`), so documents come
 * out of the API with every field of their model, as Prismic's do.
 *
 * Hand-written rather than built on `@prismicio/types-internal`: its content codecs describe
 * Prismic's internal storage format, not the API shapes a content folder holds, and their errors
 * do not carry the JSON paths this report needs.
 */

/** A field of a model, as Slice Machine writes it. */
export type ModelField = {
  type?: string
  fieldset?: string
  config?: {
    options?: string[]
    default_value?: unknown
    fields?: Record<string, ModelField>
    choices?: Record<string, ModelSliceChoice>
    select?: 'media' | 'document' | 'web' | null
    customtypes?: (string | { id: string })[]
    thumbnails?: ({ name: string } & ViewConstraint)[]
    constraint?: ViewConstraint
    repeat?: boolean
    /** A Number field's bounds. */
    min?: number
    max?: number
  }
}

type ModelSliceChoice = {
  type?: string
  'non-repeat'?: Record<string, ModelField>
  repeat?: Record<string, ModelField>
}

type CustomTypeModel = {
  id?: string
  label?: string
  repeatable?: boolean
  json?: Record<string, Record<string, ModelField>>
}

type SharedSliceModel = {
  id?: string
  variations?: {
    id: string
    primary?: Record<string, ModelField>
    items?: Record<string, ModelField>
  }[]
}

/** The models found under a folder: custom types by id, shared slices by id. */
export type Models = {
  customTypes: Map<string, { file: string; model: CustomTypeModel }>
  slices: Map<string, { file: string; model: SharedSliceModel }>
  problems: ContentProblem[]
}

function readModel<T>(file: string, rel: string, problems: ContentProblem[]): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch (error) {
    problems.push({
      file: rel,
      path: '$',
      message: `is not valid JSON: ${(error as Error).message}`,
    })
    return undefined
  }
}

/** Slice library folders: from `slicemachine.config.json` when present, else `src/slices`. */
export function sliceLibraries(modelsDir: string): string[] {
  const config = path.join(modelsDir, 'slicemachine.config.json')
  if (existsSync(config)) {
    try {
      const parsed = JSON.parse(readFileSync(config, 'utf8')) as { libraries?: string[] }
      if (Array.isArray(parsed.libraries) && parsed.libraries.length > 0)
        return parsed.libraries.map((lib) => lib.replace(/^\.\//, ''))
    } catch {
      // An unreadable config falls back to Slice Machine's default library.
    }
  }
  return ['src/slices']
}

/** Reads every custom type and shared slice model under `modelsDir`. */
export function loadModels(modelsDir: string): Models {
  const problems: ContentProblem[] = []
  const customTypes: Models['customTypes'] = new Map()
  const slices: Models['slices'] = new Map()
  const typesDir = path.join(modelsDir, 'customtypes')
  if (existsSync(typesDir)) {
    for (const id of readdirSync(typesDir).sort()) {
      const file = path.join(typesDir, id, 'index.json')
      if (!existsSync(file)) continue
      const rel = `customtypes/${id}/index.json`
      const model = readModel<CustomTypeModel>(file, rel, problems)
      if (model) customTypes.set(model.id ?? id, { file: rel, model })
    }
  }
  for (const lib of sliceLibraries(modelsDir)) {
    const libDir = path.join(modelsDir, lib)
    if (!existsSync(libDir)) continue
    for (const name of readdirSync(libDir).sort()) {
      const file = path.join(libDir, name, 'model.json')
      if (!existsSync(file)) continue
      const rel = `${lib}/${name}/model.json`
      const model = readModel<SharedSliceModel>(file, rel, problems)
      if (model?.id) slices.set(model.id, { file: rel, model })
    }
  }
  return { customTypes, slices, problems }
}

const isObject = (value: unknown): value is JsonObject =>
  !!value && typeof value === 'object' && !Array.isArray(value)

const describe = (value: unknown): string => {
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const TEXT_BLOCKS = new Set([
  'paragraph',
  'preformatted',
  'heading1',
  'heading2',
  'heading3',
  'heading4',
  'heading5',
  'heading6',
  'list-item',
  'o-list-item',
])
const SPAN_TYPES = new Set(['strong', 'em', 'hyperlink', 'label'])
const LINK_TYPES = new Set(['Any', 'Document', 'Web', 'Media'])

/** The value Prismic returns for a field nobody filled in. */
function emptyValue(field: ModelField): Json {
  switch (field.type) {
    case 'StructuredText':
    case 'Group':
    case 'Slices':
      return []
    case 'Link':
      return field.config?.repeat ? [] : { link_type: 'Any' }
    case 'Image':
    case 'GeoPoint':
    case 'Embed':
      return {}
    case 'Boolean':
      return typeof field.config?.default_value === 'boolean' ? field.config.default_value : false
    default:
      return null
  }
}

type Context = {
  entry: StoredDocument
  store: ContentStore
  models: Models
  problems: ContentProblem[]
}

/** A document that does not fit its model: Prismic serves it as it is, so the API warns. */
function report(ctx: Context, jsonPath: string, message: string): void {
  ctx.problems.push({ file: ctx.entry.file, path: jsonPath, message, severity: 'warning' })
}

/** Checks an object of fields against a field map, filling the fields it leaves out. */
function checkFields(
  ctx: Context,
  value: JsonObject,
  fields: Record<string, ModelField>,
  jsonPath: string,
  where: string,
): void {
  for (const [name, fieldValue] of Object.entries(value)) {
    const field = fields[name]
    if (!field) {
      const known = Object.keys(fields)
      report(
        ctx,
        `${jsonPath}.${name}`,
        `is not a field of ${where} (its fields: ${known.length ? known.join(', ') : 'none'})`,
      )
      continue
    }
    checkField(ctx, fieldValue, field, `${jsonPath}.${name}`)
  }
  for (const [name, field] of Object.entries(fields)) {
    if (!(name in value)) value[name] = emptyValue(field)
  }
}

function checkField(ctx: Context, value: Json, field: ModelField, jsonPath: string): void {
  const wrong = (expected: string) =>
    report(
      ctx,
      jsonPath,
      `is a ${field.type} field, so it must be ${expected}; got ${describe(value)}`,
    )
  const config = field.config ?? {}
  switch (field.type) {
    case 'Text':
      if (value !== null && typeof value !== 'string') wrong('a string or null')
      return
    case 'Number':
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value)))
        return wrong('a number or null')
      // The model's bounds, as Prismic's editor applies them when an editor types the value.
      if (typeof value === 'number') {
        const { min, max } = config
        if ((min !== undefined && value < min) || (max !== undefined && value > max))
          report(ctx, jsonPath, `is ${value}, outside its range: ${min ?? '−∞'} to ${max ?? '∞'}`)
      }
      return
    case 'Boolean':
      if (typeof value !== 'boolean') wrong('true or false')
      return
    case 'Select':
      if (value === null) return
      if (typeof value !== 'string') return wrong('a string or null')
      if (config.options && !config.options.includes(value))
        report(
          ctx,
          jsonPath,
          `is "${value}", which is not one of its options: ${config.options.join(', ')}`,
        )
      return
    case 'Color':
      if (value !== null && (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)))
        wrong('a colour such as "#1a2b3c", or null')
      return
    case 'Date':
      if (value === null) return
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
        Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
        new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
      )
        wrong('a date such as "2026-05-01", or null')
      return
    case 'Timestamp':
      if (value === null) return
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) ||
        Number.isNaN(Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')))
      )
        wrong('a timestamp such as "2026-05-01T09:30:00+0000", or null')
      return
    case 'StructuredText':
      return checkRichText(ctx, value, jsonPath, field)
    case 'Link':
      if (config.repeat) {
        if (!Array.isArray(value)) return wrong('a list of links (the field repeats)')
        value.forEach((item, i) => checkLink(ctx, item, field, `${jsonPath}[${i}]`))
        return
      }
      return checkLink(ctx, value, field, jsonPath)
    case 'Image':
      return checkImage(ctx, value, field, jsonPath)
    case 'GeoPoint':
      if (!isObject(value)) return wrong('an object: {} or { "latitude": n, "longitude": n }')
      if (Object.keys(value).length === 0) return
      if (
        typeof value.latitude !== 'number' ||
        typeof value.longitude !== 'number' ||
        Math.abs(value.latitude) > 90 ||
        Math.abs(value.longitude) > 180 ||
        Object.keys(value).length !== 2
      )
        wrong('{} or { "latitude": -90..90, "longitude": -180..180 }')
      return
    case 'Embed':
      if (!isObject(value)) return wrong('an object: {} or { "embed_url": "https://…", … }')
      if (Object.keys(value).length > 0 && typeof value.embed_url !== 'string')
        report(ctx, `${jsonPath}.embed_url`, 'is missing: a filled Embed needs "embed_url"')
      return
    case 'Group': {
      if (!Array.isArray(value)) return wrong('a list of objects')
      const fields = config.fields ?? {}
      value.forEach((item, i) => {
        if (!isObject(item))
          report(ctx, `${jsonPath}[${i}]`, `must be an object of fields; got ${describe(item)}`)
        else checkFields(ctx, item, fields, `${jsonPath}[${i}]`, 'this group')
      })
      return
    }
    case 'Slices':
      return checkSlices(ctx, value, field, jsonPath)
    case 'UID':
      report(ctx, jsonPath, 'must not be in "data": the uid goes at the top of the file ("uid")')
      return
    case 'IntegrationFields':
      if (value !== null && !isObject(value)) wrong('an object or null')
      return
    case 'Table':
      if (value !== null && !(isObject(value) && Array.isArray(value.body)))
        wrong('null or { "head"?: …, "body": [rows] }')
      return
    default:
      // Range, Separator and kinds this checker does not know: any JSON value is kept as is.
      return
  }
}

function checkRichText(ctx: Context, value: Json, jsonPath: string, field: ModelField): void {
  if (!Array.isArray(value)) {
    report(
      ctx,
      jsonPath,
      `is a ${field.type} field, so it must be a list of blocks such as [{ "type": "paragraph", "text": "…", "spans": [] }]; got ${describe(value)}`,
    )
    return
  }
  value.forEach((block, i) => {
    const at = `${jsonPath}[${i}]`
    if (!isObject(block) || typeof block.type !== 'string') {
      report(ctx, at, `must be a block object with a "type"; got ${describe(block)}`)
      return
    }
    if (TEXT_BLOCKS.has(block.type)) {
      if (typeof block.text !== 'string') report(ctx, `${at}.text`, 'must be a string')
      if (block.spans !== undefined && !Array.isArray(block.spans))
        report(ctx, `${at}.spans`, 'must be a list of spans')
      if (Array.isArray(block.spans)) {
        const length = typeof block.text === 'string' ? block.text.length : 0
        block.spans.forEach((span, j) => {
          const sp = `${at}.spans[${j}]`
          if (!isObject(span) || typeof span.type !== 'string' || !SPAN_TYPES.has(span.type)) {
            report(
              ctx,
              sp,
              `must be a span of type ${[...SPAN_TYPES].join(', ')}; got ${describe(span)}`,
            )
            return
          }
          if (
            typeof span.start !== 'number' ||
            typeof span.end !== 'number' ||
            span.start < 0 ||
            span.end > length ||
            span.start > span.end
          )
            report(ctx, sp, `needs "start" and "end" within the text (0..${length})`)
          if (span.type === 'hyperlink')
            checkLink(ctx, span.data ?? null, { type: 'Link' }, `${sp}.data`)
        })
      }
    } else if (block.type === 'image') {
      if (typeof block.url !== 'string')
        report(
          ctx,
          at,
          'is an image block, so it needs an image: { "type": "image", "media": "…" }',
        )
    } else if (block.type === 'embed') {
      if (!isObject(block.oembed) || typeof block.oembed.embed_url !== 'string')
        report(ctx, `${at}.oembed`, 'is an embed block, so it needs { "embed_url": "…" }')
    } else {
      report(
        ctx,
        `${at}.type`,
        `is "${block.type}", which is not a rich text block (${[...TEXT_BLOCKS].join(', ')}, image, embed)`,
      )
    }
  })
}

function allowedTypes(field: ModelField): string[] | undefined {
  const list = field.config?.customtypes
  if (!list?.length) return undefined
  return list.map((t) => (typeof t === 'string' ? t : t.id))
}

function checkLink(ctx: Context, value: Json, field: ModelField, jsonPath: string): void {
  if (!isObject(value) || typeof value.link_type !== 'string' || !LINK_TYPES.has(value.link_type)) {
    report(
      ctx,
      jsonPath,
      `is a Link, so it must be an object with "link_type" Any, Document, Web or Media; got ${describe(value)}`,
    )
    return
  }
  const select = field.config?.select
  const kind = value.link_type
  if (kind === 'Any') return
  if (select === 'media' && kind !== 'Media')
    report(ctx, jsonPath, `links to a ${kind}, but this field takes media only`)
  if (select === 'document' && kind !== 'Document')
    report(ctx, jsonPath, `links to a ${kind}, but this field takes documents only`)
  if (select === 'web' && kind !== 'Web')
    report(ctx, jsonPath, `links to a ${kind}, but this field takes web links only`)
  if (kind === 'Web' && typeof value.url !== 'string')
    report(ctx, `${jsonPath}.url`, 'is missing: a Web link needs "url"')
  if (kind === 'Document' && value.isBroken !== true) {
    const types = allowedTypes(field)
    if (types && typeof value.type === 'string' && !types.includes(value.type))
      report(
        ctx,
        jsonPath,
        `links to a ${value.type}, but this field takes only ${types.join(', ')}`,
      )
  }
}

function checkImage(ctx: Context, value: Json, field: ModelField, jsonPath: string): void {
  if (!isObject(value)) {
    report(
      ctx,
      jsonPath,
      `is an Image, so it must be {} or { "media": "file.jpg", "alt": "…" }; got ${describe(value)}`,
    )
    return
  }
  if (isEmptyImage(value)) return
  if (typeof value.url !== 'string')
    report(ctx, jsonPath, 'is an Image without a picture: give "media" (a file under media/)')
  if (value.alt !== undefined && value.alt !== null && typeof value.alt !== 'string')
    report(ctx, `${jsonPath}.alt`, 'must be a string or null')
  applyImageModel(ctx, value, field, jsonPath)
  const thumbnails = new Set((field.config?.thumbnails ?? []).map((t) => t.name))
  const own = new Set(['id', 'url', 'alt', 'copyright', 'dimensions', 'edit'])
  for (const [name, thumb] of Object.entries(value)) {
    if (own.has(name)) continue
    if (!thumbnails.has(name)) {
      report(ctx, `${jsonPath}.${name}`, `is not a thumbnail of this image field`)
      continue
    }
    checkImage(ctx, thumb, { type: 'Image' }, `${jsonPath}.${name}`)
  }
}

/**
 * An empty image as the client's `EmptyImageFieldImage` types it: `{}`, or any of `id`, `url`,
 * `dimensions`, `edit`, `alt` and `copyright` set to null (`@prismicio/mock` writes all six).
 */
function isEmptyImage(value: JsonObject): boolean {
  return Object.entries(value).every(([name, v]) => EMPTY_IMAGE_KEYS.has(name) && v === null)
}
const EMPTY_IMAGE_KEYS = new Set(['id', 'url', 'dimensions', 'edit', 'alt', 'copyright'])

/**
 * Sizes an image's views as its model says, as Prismic does when an editor uploads: the field
 * itself to its `constraint`, and each thumbnail the model names to its own size. A thumbnail
 * the document leaves out is cut from the field's file, centred; one written as `{ "crop": … }`
 * is cut there; one with its own `media` keeps its file and is sized.
 */
function applyImageModel(ctx: Context, value: JsonObject, field: ModelField, jsonPath: string) {
  const main = sourceOf(value)
  if (!main) return
  const constraint = field.config?.constraint ?? {}
  if (constraint.width || constraint.height)
    Object.assign(value, imageView(main.origin, main.crop, constraint))
  for (const thumbnail of field.config?.thumbnails ?? []) {
    const written = value[thumbnail.name]
    const own = isObject(written) ? sourceOf(written) : undefined
    if (isObject(written) && own) {
      Object.assign(written, imageView(own.origin, own.crop, thumbnail))
      continue
    }
    if (written !== undefined && !(isObject(written) && written.url === undefined)) continue
    const at = `${jsonPath}.${thumbnail.name}`
    const extra = isObject(written)
      ? Object.keys(written).filter((k) => k !== 'crop' && k !== 'alt')
      : []
    if (extra.length) {
      report(ctx, at, `is a thumbnail without "media"; it takes "crop" and "alt" only`)
      continue
    }
    let crop
    if (isObject(written) && written.crop !== undefined) {
      const read = readCrop(written.crop, main.origin)
      if (typeof read === 'string') {
        report(ctx, `${at}.crop`, read)
        continue
      }
      crop = read
    }
    const alt = isObject(written) && typeof written.alt === 'string' ? written.alt : value.alt
    value[thumbnail.name] = {
      id: value.id ?? null,
      alt: alt ?? null,
      copyright: value.copyright ?? null,
      ...imageView(main.origin, crop, thumbnail),
    }
  }
}

function checkSlices(ctx: Context, value: Json, field: ModelField, jsonPath: string): void {
  if (!Array.isArray(value)) {
    report(ctx, jsonPath, `is a slice zone, so it must be a list of slices; got ${describe(value)}`)
    return
  }
  const choices = field.config?.choices ?? {}
  value.forEach((slice, i) => {
    const at = `${jsonPath}[${i}]`
    if (!isObject(slice) || typeof slice.slice_type !== 'string') {
      report(ctx, at, `must be a slice object with "slice_type"; got ${describe(slice)}`)
      return
    }
    const sliceType = slice.slice_type
    const choice = choices[sliceType]
    if (!choice) {
      report(
        ctx,
        `${at}.slice_type`,
        `is "${sliceType}", which this slice zone does not allow (it allows: ${Object.keys(choices).join(', ') || 'nothing'})`,
      )
      return
    }
    let primaryFields: Record<string, ModelField>
    let itemFields: Record<string, ModelField>
    if (choice.type === 'SharedSlice') {
      const shared = ctx.models.slices.get(sliceType)
      if (!shared) {
        report(ctx, `${at}.slice_type`, `is "${sliceType}", which no slice model.json defines`)
        return
      }
      const variations = shared.model.variations ?? []
      const variationId = slice.variation ?? 'default'
      const variation = variations.find((v) => v.id === variationId)
      if (!variation) {
        report(
          ctx,
          `${at}.variation`,
          `is ${describe(slice.variation)}, which is not a variation of ${sliceType} (${variations.map((v) => v.id).join(', ')})`,
        )
        return
      }
      slice.variation = variationId
      slice.version ??= 'initial'
      primaryFields = variation.primary ?? {}
      itemFields = variation.items ?? {}
    } else {
      primaryFields = choice['non-repeat'] ?? {}
      itemFields = choice.repeat ?? {}
    }
    const allowed = new Set([
      'id',
      'slice_type',
      'slice_label',
      'variation',
      'version',
      'primary',
      'items',
    ])
    for (const key of Object.keys(slice))
      if (!allowed.has(key)) report(ctx, `${at}.${key}`, 'is not a key of a slice')
    slice.id ??= `${sliceType}$${ctx.entry.doc.id}-${i}`
    slice.slice_label ??= null
    slice.primary ??= {}
    slice.items ??= []
    if (!isObject(slice.primary))
      report(ctx, `${at}.primary`, `must be an object of fields; got ${describe(slice.primary)}`)
    else checkFields(ctx, slice.primary, primaryFields, `${at}.primary`, `slice ${sliceType}`)
    if (!Array.isArray(slice.items)) {
      report(ctx, `${at}.items`, `must be a list; got ${describe(slice.items)}`)
      return
    }
    slice.items.forEach((item, j) => {
      if (!isObject(item))
        report(ctx, `${at}.items[${j}]`, `must be an object of fields; got ${describe(item)}`)
      else
        checkFields(ctx, item, itemFields, `${at}.items[${j}]`, `the items of slice ${sliceType}`)
    })
  })
}

/**
 * Every problem of a loaded store against its models: unknown types, slices and variations,
 * missing or repeated uids, fields of the wrong kind or not in the model, link targets of the
 * wrong type, and alternates that disagree. Links to missing documents and media files are found
 * by the store while it expands them. Fills the fields documents leave out.
 */
export function validateContent(store: ContentStore, modelsDir?: string): ContentProblem[] {
  const problems: ContentProblem[] = []
  const seen = new Map<string, string>()
  for (const entry of store.documents) {
    const { doc } = entry
    if (doc.uid !== null) {
      const key = `${doc.type}/${doc.lang}/${doc.uid}`
      const other = seen.get(key)
      if (other)
        problems.push({
          file: entry.file,
          path: '$.uid',
          message: `"${doc.uid}" is already the uid of ${other} (${doc.type}, ${doc.lang})`,
        })
      else seen.set(key, entry.file)
    }
  }
  const langIds = new Set(store.languages.map((l) => l.id))
  for (const entry of store.documents) {
    if (!langIds.has(entry.doc.lang))
      problems.push({
        file: entry.file,
        path: '$',
        message: `is in language "${entry.doc.lang}", which repository.json does not list (${[...langIds].join(', ')})`,
      })
  }
  if (!modelsDir) return problems

  const models = loadModels(modelsDir)
  problems.push(...models.problems)
  // An empty repository (a new writable one) needs no models yet; documents do.
  if (models.customTypes.size === 0 && store.documents.length > 0) {
    problems.push({
      file: 'customtypes/',
      path: '$',
      message: `has no models: ${path.resolve(modelsDir)}/customtypes/<id>/index.json defines each type`,
    })
    return problems
  }
  for (const entry of store.documents) {
    const found = models.customTypes.get(entry.doc.type)
    if (!found) {
      problems.push({
        file: entry.file,
        path: '$',
        message: `has type "${entry.doc.type}" (its folder), which no model in customtypes/ defines (known: ${[...models.customTypes.keys()].join(', ')})`,
        severity: 'warning',
      })
      continue
    }
    const ctx: Context = { entry, store, models, problems }
    const fields: Record<string, ModelField> = {}
    for (const tab of Object.values(found.model.json ?? {})) Object.assign(fields, tab)
    const uidField = Object.entries(fields).find(([, f]) => f.type === 'UID')
    if (uidField && !entry.doc.uid)
      report(ctx, '$.uid', `is missing: type ${entry.doc.type} has a UID field`)
    if (!uidField && entry.doc.uid)
      report(ctx, '$.uid', `is set, but type ${entry.doc.type} has no UID field`)
    const dataFields = Object.fromEntries(
      Object.entries(fields).filter(([, f]) => f.type !== 'UID'),
    )
    checkFields(ctx, entry.doc.data, dataFields, '$.data', `type ${entry.doc.type}`)
  }

  // A single type has one document per language, and its translations are alternates of it.
  const singles = new Map<string, StoredDocument[]>()
  for (const entry of store.documents) {
    const found = models.customTypes.get(entry.doc.type)
    if (found && found.model.repeatable === false) {
      const list = singles.get(entry.doc.type) ?? []
      list.push(entry)
      singles.set(entry.doc.type, list)
    }
  }
  for (const [type, entries] of singles) {
    const keys = [...new Set(entries.map((e) => e.key))]
    // The folder named after the type is the document; any other folder is a second one.
    const main = keys.includes(type) ? type : keys[0]!
    for (const entry of entries.filter((e) => e.key !== main))
      problems.push({
        file: entry.file,
        path: '$',
        message: `is a second document of the single type ${type}: its translations must be alternates in documents/${type}/${main}/<lang>.json`,
      })
  }
  return problems
}

/**
 * Where the models of a content folder live when nobody says: the folder itself when it holds
 * `customtypes/` (a self-contained repository), else the project (`.`).
 */
export function defaultModelsDir(contentDir: string): string {
  return existsSync(path.join(contentDir, 'customtypes')) ? contentDir : '.'
}

/** One readable report: a line per problem, naming the file and the JSON path. */
export function formatProblems(problems: ContentProblem[], dir: string): string {
  return [
    `The content folder ${dir} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
    ...problems.map((p) => `  ${p.file} ${p.path}: ${p.message}`),
  ].join('\n')
}

/**
 * The fields filters may name, by type: every field of each model (groups with their subfields),
 * and for a type no model defines, the fields its documents hold.
 */
export function filterSchema(store: ContentStore, modelsDir?: string): FilterSchema {
  const schema: FilterSchema = new Map()
  const models = modelsDir ? loadModels(modelsDir) : undefined
  for (const [id, { model }] of models?.customTypes ?? []) {
    const fields = new Map<string, Set<string> | undefined>()
    for (const tab of Object.values(model.json ?? {}))
      for (const [name, field] of Object.entries(tab))
        fields.set(
          name,
          field.type === 'Group' ? new Set(Object.keys(field.config?.fields ?? {})) : undefined,
        )
    schema.set(id, fields)
  }
  for (const { doc } of store.documents) {
    if (models?.customTypes.has(doc.type)) continue
    let fields = schema.get(doc.type)
    if (!fields) schema.set(doc.type, (fields = new Map()))
    for (const name of Object.keys(doc.data)) fields.set(name, undefined)
  }
  return schema
}

/** One store (the published documents, or a release over them) and everything found in it. */
export type CheckedStore = { store: ContentStore; problems: ContentProblem[] }

/** Loads the published documents, or a release over them, and checks them against the models. */
export function loadChecked(
  contentDir: string,
  modelsDir?: string,
  release?: string,
  files?: FileCache,
): CheckedStore {
  const store = loadContent(contentDir, { release, files })
  return { store, problems: [...store.problems, ...validateContent(store, modelsDir)] }
}

/**
 * What `content:check` reports: every problem of the published documents and of each release,
 * each once (a release repeats the published documents it does not replace).
 */
export function checkFolder(
  contentDir: string,
  modelsDir?: string,
): CheckedStore & { releases: ContentStore[] } {
  const master = loadChecked(contentDir, modelsDir)
  const releases = listReleases(contentDir).map((r) => loadChecked(contentDir, modelsDir, r.id))
  const problems = uniqueProblems([master.problems, ...releases.map((r) => r.problems)])
  return { store: master.store, problems, releases: releases.map((r) => r.store) }
}

/** The problems of several stores, each reported once. */
export function uniqueProblems(lists: ContentProblem[][]): ContentProblem[] {
  const seen = new Set<string>()
  return lists.flat().filter((p) => {
    const key = `${p.file}\0${p.path}\0${p.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
