// `content:check`'s hotspots: each hotspot of each model viewer slice (src/slices/ModelViewer),
// in the published documents and in every release, must have a label, a position and a normal of
// three numbers, a view the viewer can turn to (or none), and a position on or near its model: not
// farther outside the model's bounds than `BOUNDS_MARGIN` of its largest side (a position typed
// in centimetres, or copied from another model, is refused here rather than shown in mid-air).
// Its finishes too: each of the slice's labels for a finish (`variant_labels`) must name one of
// the model's material variants, as the file spells it (a label for a name the model lacks is
// never shown, and the row shows that finish under the model's own name instead).
// Each problem names the document's file, the slice and the field.
import { isFilled, type RichTextField } from '@prismicio/client'
import {
  BOUNDS_MARGIN,
  hotspotProblems,
  outside,
  parseVec3,
  type HotspotFields,
} from '../../rules/hotspots'
import type { ModelBounds } from './models-check'
import { metres } from './models-check'
import { MEDIA_TOKEN, type ContentProblem, type ContentStore } from './store'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type Slice = { slice_type: string; variation?: string; primary?: Record<string, Json> }

const isSlice = (value: Json): value is Json & Slice =>
  !!value && typeof value === 'object' && !Array.isArray(value) && 'slice_type' in value

/** The media file a link names, relative to `media/`, when it is the content folder's. */
export function mediaFile(link: Json | undefined): string | null {
  if (!link || typeof link !== 'object' || Array.isArray(link)) return null
  const url = link.url
  if (typeof url !== 'string' || !url.startsWith(`${MEDIA_TOKEN}/`)) return null
  return decodeURIComponent(url.slice(MEDIA_TOKEN.length + 1).split(/[?#]/)[0]!)
}

const box = (b: ModelBounds) =>
  (['x', 'y', 'z'] as const)
    .map((axis, k) => `${axis} ${+b.min[k]!.toFixed(3)} to ${+b.max[k]!.toFixed(3)}`)
    .join(', ')

/**
 * The problems of one model viewer slice's hotspots, at `at` (its JSON path); `model`: its media
 * file, when the content folder's.
 */
function sliceProblems(
  slice: Slice,
  at: string,
  file: string,
  model: string | null,
  bounds: Map<string, ModelBounds>,
): ContentProblem[] {
  const hotspots = slice.primary?.hotspots
  if (!Array.isArray(hotspots)) return []
  const modelBox = model ? bounds.get(model) : undefined
  const problems: ContentProblem[] = []
  hotspots.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return
    const fields = item as HotspotFields & Record<string, Json>
    // A row Slice Machine adds and the editor leaves empty is no hotspot: Prismic keeps it.
    const written = ['label', 'detail', 'position', 'normal', 'view'].some((name) => {
      const value = fields[name]
      return Array.isArray(value)
        ? isFilled.richText(value as RichTextField)
        : typeof value === 'string' && !!value.trim()
    })
    if (!written) return
    const where = `${at}.primary.hotspots[${i}]`
    const say = (field: string, message: string) =>
      problems.push({
        file,
        path: `${where}.${field}`,
        message: `(slice ${slice.slice_type}, hotspot ${i + 1}${fields.label ? ` "${fields.label}"` : ''}) ${message}`,
      })
    for (const problem of hotspotProblems(fields)) say(problem.field, problem.message)
    const position = parseVec3(fields.position)
    if (!position.ok || !modelBox || !model) return
    const side = Math.max(...modelBox.max.map((c, k) => c - modelBox.min[k]!))
    const off = outside(position.value, modelBox.min, modelBox.max)
    const far = Math.hypot(...off)
    if (far > BOUNDS_MARGIN * side)
      say(
        'position',
        `is ${position.value.join(' ')}, ${metres(far)} outside the model ${model} (its bounds: ${box(modelBox)}, in metres): a hotspot sits on its model, in the model's own coordinates`,
      )
  })
  return problems
}

/**
 * The problems of one model viewer slice's labels for its model's finishes, at `at`: each names a
 * variant the model has. Only for a model of the content folder that reads (in `variants`).
 */
function finishProblems(
  slice: Slice,
  at: string,
  file: string,
  model: string | null,
  variants: Map<string, string[]>,
): ContentProblem[] {
  const rows = slice.primary?.variant_labels
  const names = model ? variants.get(model) : undefined
  if (!Array.isArray(rows) || !model || !names) return []
  const problems: ContentProblem[] = []
  const has = names.length
    ? `its finishes are ${names.map((name) => `"${name}"`).join(', ')}`
    : 'it has no finishes (no KHR_materials_variants)'
  rows.forEach((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row)) return
    const name = typeof row.name === 'string' ? row.name.trim() : ''
    const label = typeof row.label === 'string' ? row.label.trim() : ''
    // A row left empty is no label (Prismic keeps it); one without its label is not shown.
    if (!name || names.includes(name)) return
    problems.push({
      file,
      path: `${at}.primary.variant_labels[${i}].name`,
      message: `(slice ${slice.slice_type}, finish ${i + 1}${label ? ` "${label}"` : ''}) is "${name}", which the model ${model} does not have: ${has}. Write the name as the file spells it, or the label is never shown`,
    })
  })
  return problems
}

/** Every slice of a document, with its JSON path, in every slice zone. */
export function* slicesOf(data: Record<string, Json>): Generator<[Slice, string]> {
  for (const [name, value] of Object.entries(data)) {
    if (!Array.isArray(value)) continue
    for (const [i, slice] of value.entries())
      if (isSlice(slice)) yield [slice, `$.data.${name}[${i}]`]
  }
}

/**
 * The hotspot and finish problems of every document in `stores` (the published documents, then
 * each release), each once. `models`: each model's box and variants' names, by its path under
 * `media/` (checkModels).
 */
export function checkHotspots(
  stores: ContentStore[],
  models: { bounds: Map<string, ModelBounds>; variants: Map<string, string[]> },
): ContentProblem[] {
  const problems: ContentProblem[] = []
  for (const store of stores)
    for (const entry of store.documents)
      for (const [slice, at] of slicesOf(entry.doc.data as Record<string, Json>)) {
        if (slice.slice_type !== 'model_viewer') continue
        const model = mediaFile(slice.primary?.model)
        problems.push(
          ...sliceProblems(slice, at, entry.file, model, models.bounds),
          ...finishProblems(slice, at, entry.file, model, models.variants),
        )
      }
  return distinct(problems)
}

/**
 * Each problem once, in order: a document unchanged in a release is read again there, with the
 * same problems.
 */
export function distinct(problems: ContentProblem[]): ContentProblem[] {
  const seen = new Set<string>()
  return problems.filter((problem) => {
    const key = `${problem.file}\0${problem.path}\0${problem.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
