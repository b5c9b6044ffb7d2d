/**
 * Malformed documents render without throwing. Content reaches the site's components only in the
 * shapes its models declare: every field of a document or slice is coerced to its model's type
 * (a Text field that holds an object becomes null, a rich text that is not a list becomes [], a
 * link without `link_type` becomes an empty link, an image without a URL and dimensions becomes
 * an empty image, a group that is not a list becomes []), missing fields are filled with their
 * empty value, and slices that are not objects with a `slice_type` are dropped. Hand-written:
 * the Prismic libraries validate models, not documents, and `@prismicio/types-internal`'s codecs
 * refuse a document rather than repair it.
 */
// Models the normalizer reads. tests/unit/hardening-malformed.test.tsx fails when a slice or custom
// type exists without being listed here.
import CallToActionSlice from '@/slices/CallToAction/model.json'
import ContactFormSlice from '@/slices/ContactForm/model.json'
import FaqSlice from '@/slices/Faq/model.json'
import FeatureGridSlice from '@/slices/FeatureGrid/model.json'
import HeroSlice from '@/slices/Hero/model.json'
import MediaTextSlice from '@/slices/MediaText/model.json'
import ModelViewerSlice from '@/slices/ModelViewer/model.json'
import NewsletterSlice from '@/slices/Newsletter/model.json'
import PostListSlice from '@/slices/PostList/model.json'
import ProjectGridSlice from '@/slices/ProjectGrid/model.json'
import RichTextSlice from '@/slices/RichText/model.json'
import ScrollStorySlice from '@/slices/ScrollStory/model.json'
import TestimonialSlice from '@/slices/Testimonial/model.json'
import journal_indexType from '../../../customtypes/journal_index/index.json'
import navigationType from '../../../customtypes/navigation/index.json'
import pageType from '../../../customtypes/page/index.json'
import postType from '../../../customtypes/post/index.json'
import projectType from '../../../customtypes/project/index.json'
import settingsType from '../../../customtypes/settings/index.json'
import work_indexType from '../../../customtypes/work_index/index.json'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type FieldModel = { type: string; config?: { fields?: Record<string, FieldModel> } }
type SliceModel = {
  id: string
  variations: {
    id: string
    primary?: Record<string, FieldModel>
    items?: Record<string, FieldModel>
  }[]
}
type TypeModel = { id: string; json: Record<string, Record<string, FieldModel>> }

/** The slice models, by slice type. */
export const SLICE_MODELS: Record<string, SliceModel> = Object.fromEntries(
  (
    [
      CallToActionSlice,
      ContactFormSlice,
      FaqSlice,
      FeatureGridSlice,
      HeroSlice,
      MediaTextSlice,
      ModelViewerSlice,
      NewsletterSlice,
      PostListSlice,
      ProjectGridSlice,
      RichTextSlice,
      ScrollStorySlice,
      TestimonialSlice,
    ] as SliceModel[]
  ).map((m) => [m.id, m]),
)

/** The custom types' fields (all tabs), by type. */
export const TYPE_MODELS: Record<string, Record<string, FieldModel>> = Object.fromEntries(
  (
    [
      journal_indexType,
      navigationType,
      pageType,
      postType,
      projectType,
      settingsType,
      work_indexType,
    ] as unknown as TypeModel[]
  ).map((m) => [m.id, Object.assign({}, ...Object.values(m.json)) as Record<string, FieldModel>]),
)

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null)

function span(value: unknown): Json | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined
  if (typeof value.start !== 'number' || typeof value.end !== 'number') return undefined
  if (value.type === 'hyperlink' && !isObject(value.data)) return undefined
  return value
}

function richTextNode(value: unknown): Json | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined
  if (value.type === 'image') return image(value).url ? { ...value, ...image(value) } : undefined
  if (value.type === 'embed') return isObject(value.oembed) ? value : undefined
  return {
    ...value,
    text: typeof value.text === 'string' ? value.text : '',
    spans: Array.isArray(value.spans)
      ? (value.spans.map(span).filter((s) => s !== undefined) as Json[])
      : [],
  }
}

function richText(value: unknown): Json[] {
  return Array.isArray(value)
    ? (value.map(richTextNode).filter((n) => n !== undefined) as Json[])
    : []
}

function image(value: unknown): Record<string, Json> {
  if (!isObject(value) || typeof value.url !== 'string' || !value.url) return {}
  const d = value.dimensions
  if (!isObject(d) || typeof d.width !== 'number' || typeof d.height !== 'number') return {}
  if (!(d.width > 0 && d.height > 0)) return {}
  return { ...value, alt: str(value.alt), copyright: str(value.copyright) }
}

function link(value: unknown): Json {
  if (!isObject(value) || typeof value.link_type !== 'string') return { link_type: 'Any' }
  if ('url' in value && value.url != null && typeof value.url !== 'string')
    return { link_type: 'Any' }
  if (value.link_type === 'Web' && typeof value.url !== 'string') return { link_type: 'Any' }
  return value
}

function field(model: FieldModel, value: unknown): Json {
  switch (model.type) {
    case 'Text':
    case 'Select':
    case 'Color':
    case 'Date':
    case 'Timestamp':
    case 'UID':
      return str(value)
    case 'Number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null
    case 'Boolean':
      return typeof value === 'boolean' ? value : false
    case 'StructuredText':
      return richText(value)
    case 'Image':
      return image(value)
    case 'Link':
      return link(value)
    case 'Embed':
      return isObject(value) && typeof value.embed_url === 'string' ? value : {}
    case 'GeoPoint':
      return isObject(value) && typeof value.latitude === 'number' ? value : {}
    case 'Group':
      return Array.isArray(value)
        ? value.filter(isObject).map((item) => fields(model.config?.fields ?? {}, item))
        : []
    case 'Slices':
      return normalizeSlices(value)
    default:
      return (value ?? null) as Json
  }
}

function fields(models: Record<string, FieldModel>, value: unknown): Record<string, Json> {
  const source = isObject(value) ? value : {}
  const out: Record<string, Json> = {}
  for (const [key, model] of Object.entries(models)) out[key] = field(model, source[key])
  return out
}

/**
 * A slice zone in the shapes the slice models declare. Unknown slice types keep only their
 * identity (the SliceZone renders nothing for them in production).
 */
export function normalizeSlices(value: unknown): Json[] {
  if (!Array.isArray(value)) return []
  const out: Json[] = []
  value.forEach((slice, index) => {
    if (!isObject(slice) || typeof slice.slice_type !== 'string' || !slice.slice_type) return
    const base = {
      id: typeof slice.id === 'string' ? slice.id : `${slice.slice_type}$${index}`,
      slice_type: slice.slice_type,
      slice_label: str(slice.slice_label),
      variation: typeof slice.variation === 'string' ? slice.variation : 'default',
      version: typeof slice.version === 'string' ? slice.version : 'initial',
    }
    const model = SLICE_MODELS[slice.slice_type]
    if (!model) return out.push({ ...base, primary: {}, items: [] })
    const variation = model.variations.find((v) => v.id === slice.variation) ?? model.variations[0]
    out.push({
      ...base,
      variation: variation.id,
      primary: fields(variation.primary ?? {}, slice.primary),
      items: Array.isArray(slice.items)
        ? slice.items.filter(isObject).map((item) => fields(variation.items ?? {}, item))
        : [],
    })
  })
  return out
}

/** A document whose `data` is in the shapes its custom type declares (others unchanged). */
export function normalizeDocument<T>(document: T): T {
  if (!isObject(document) || typeof document.type !== 'string') return document
  const model = TYPE_MODELS[document.type]
  if (!model) return document
  const { uid: _uid, ...dataModel } = model
  void _uid
  return { ...document, data: fields(dataModel, document.data) } as T
}

/** A Content API answer with every document in it normalized (search results or one document). */
export function normalizeContent<T>(answer: T): T {
  if (!isObject(answer)) return answer
  if (Array.isArray(answer.results))
    return { ...answer, results: answer.results.map((d) => normalizeDocument(d)) } as T
  return normalizeDocument(answer)
}
