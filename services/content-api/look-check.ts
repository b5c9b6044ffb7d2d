// `content:check`'s art direction (rules/look.ts): each model slice's light, shadow and camera
// fields (the model viewer, the hero's model variation) and the settings document's site-wide
// look, in the published documents and in every release. A number outside its range is the
// model's own check (validate.ts, from each Number field's `min` and `max`); here: an orbit, a
// target or a limit that does not parse, a minimum over its maximum, and an environment file that
// is not an HDR, JPEG, PNG or AVIF the renderer reads, or that cannot be read (opened here, for a
// file of the content folder). And a 3D scene with no text alternative: neither its description
// nor its poster's alt text. Each problem names the document's file, the slice and the field.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { lookProblems, type CameraFields, type LookFields } from '../../rules/look'
import { inspectEnvironment } from './environments/variants'
import { mediaFile, slicesOf, type Json } from './hotspots-check'
import type { ContentProblem, ContentStore } from './store'

/**
 * Whether a slice shows a model with a look: a model viewer, a story, or a hero of the model
 * variation.
 */
const looked = (slice: { slice_type: string; variation?: string }) =>
  slice.slice_type === 'model_viewer' ||
  slice.slice_type === 'scroll_story' ||
  (slice.slice_type === 'hero' && slice.variation === 'model')

/**
 * The look problems of every document in `stores` (the published documents, then each release),
 * each once; `media`: the content folder's media directory, where environment files are opened.
 */
export async function checkLooks(stores: ContentStore[], media: string): Promise<ContentProblem[]> {
  const seen = new Set<string>()
  const problems: ContentProblem[] = []
  const opened = new Map<string, Promise<string | null>>()
  const unreadable = (file: string) => {
    let found = opened.get(file)
    if (!found) {
      found = readFile(path.join(media, file))
        .then(async (bytes) => {
          const { width, height } = await inspectEnvironment(bytes)
          return width === height * 2
            ? null
            : `is ${width} × ${height}: an environment is equirectangular, twice as wide as high`
        })
        .catch((error: unknown) => `cannot be read: ${(error as Error).message}`)
      opened.set(file, found)
    }
    return found
  }
  const check = async (
    file: string,
    at: string,
    where: string,
    fields: Record<string, Json> | undefined,
  ) => {
    if (!fields) return
    const found = lookProblems(fields as LookFields & CameraFields).map((problem) => ({
      field: problem.field,
      message: problem.message,
    }))
    const image = mediaFile(fields.environment_image)
    if (image && !found.some((problem) => problem.field === 'environment_image')) {
      const problem = await unreadable(image)
      if (problem) found.push({ field: 'environment_image', message: `(${image}) ${problem}` })
    }
    for (const { field, message } of found) {
      const problem = { file, path: `${at}.${field}`, message: `(${where}) ${message}` }
      const key = `${problem.file}\0${problem.path}\0${problem.message}`
      if (!seen.has(key)) problems.push(problem)
      seen.add(key)
    }
  }
  for (const store of stores)
    for (const entry of store.documents) {
      const data = entry.doc.data as Record<string, Json>
      if (entry.doc.type === 'settings')
        await check(entry.file, '$.data', 'settings, 3D look', data)
      for (const [slice, at] of slicesOf(data)) {
        if (looked(slice))
          await check(entry.file, `${at}.primary`, `slice ${slice.slice_type}`, slice.primary)
        const unnamed = unnamedScene(slice)
        if (!unnamed) continue
        const problem = {
          file: entry.file,
          path: `${at}.primary.${unnamed}`,
          message: `(slice ${slice.slice_type}) is empty, and so is the poster's alt text: the 3D scene would have no name for screen readers (WCAG 1.1.1). Describe what it shows`,
        }
        const key = `${problem.file}\0${problem.path}`
        if (!seen.has(key)) problems.push(problem)
        seen.add(key)
      }
    }
  return problems
}

/** A field's text, trimmed ('' when it is not text). */
const textOf = (value: Json | undefined) => (typeof value === 'string' ? value.trim() : '')

/** A link or image field's property (its `url`, an image's `alt`). */
const propertyOf = (value: Json | undefined, name: string) =>
  value && typeof value === 'object' && !Array.isArray(value) ? value[name] : undefined

/**
 * The field that names a slice's 3D scene, when neither it nor the poster's alt text says anything
 * (the stage is an image named by one of them: src/three/ThreeSlot.tsx); null when one does, or
 * when the slice shows no scene (a viewer with no model).
 */
function unnamedScene(slice: {
  slice_type: string
  primary?: Record<string, Json>
}): string | null {
  const primary = slice.primary ?? {}
  const field =
    slice.slice_type === 'hero'
      ? 'scene_description'
      : (slice.slice_type === 'model_viewer' || slice.slice_type === 'scroll_story') &&
          textOf(propertyOf(primary.model, 'url'))
        ? 'description'
        : null
  if (!field) return null
  return textOf(primary[field]) || textOf(propertyOf(primary.poster, 'alt')) ? null : field
}
