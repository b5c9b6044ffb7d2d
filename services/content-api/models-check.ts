// `content:check`'s models: every glTF model in the media folder is read as the renderer would
// read it (the container, the JSON, the required extensions, then every buffer and compressed
// mesh decoded with glTF-Transform), so a file that cannot be drawn is named in CI, not found
// by a visitor. A problem names the file and the reason, as the browser's console line does.
// Its size is checked too: glTF is in metres, and AR shows a model at that size.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { getBounds, Logger, NodeIO, type Document } from '@gltf-transform/core'
import { ALL_EXTENSIONS, KHRMaterialsVariants } from '@gltf-transform/extensions'
import draco3d from 'draco3dgltf'
import { MeshoptDecoder } from 'meshoptimizer'
import { unsupportedRequired } from '../../rules/model-formats'
import type { ContentProblem } from './store'

const MODEL = /\.(glb|gltf)$/i

/** Every glTF model under `dir`, recursively, sorted. */
export function modelFiles(dir: string): string[] {
  let out: string[] = []
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out = out.concat(modelFiles(full))
    else if (MODEL.test(entry.name)) out.push(full)
  }
  return out.sort()
}

/** The JSON chunk of a GLB, or of a `.gltf`; throws a sentence when the file is neither. */
export function gltfJson(bytes: Uint8Array): {
  asset?: { version?: string }
  extensionsRequired?: string[]
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength >= 12 && view.getUint32(0, true) === 0x46546c67) {
    const declared = view.getUint32(8, true)
    if (declared !== bytes.byteLength)
      throw new Error(
        `it is cut short or padded: the GLB header says ${declared} bytes, the file has ${bytes.byteLength}`,
      )
    const length = view.getUint32(12, true)
    if (view.getUint32(16, true) !== 0x4e4f534a || 20 + length > bytes.byteLength)
      throw new Error('its GLB container has no JSON chunk')
    return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)))
  }
  const text = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 1 << 20)))
  if (!text.trimStart().startsWith('{'))
    throw new Error('it is not glTF (neither a GLB nor glTF JSON)')
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new Error('it is not glTF: its JSON does not parse')
  }
}

let reader: Promise<NodeIO> | null = null
function io(): Promise<NodeIO> {
  reader ??= (async () => {
    await MeshoptDecoder.ready
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.ERROR))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'meshopt.decoder': MeshoptDecoder,
        'draco3d.decoder': await draco3d.createDecoderModule(),
      })
  })()
  return reader
}

/** The model in `bytes` read as the renderer reads it, or why it cannot be. */
async function readModel(bytes: Uint8Array, file: string): Promise<Document | string> {
  let json
  try {
    json = gltfJson(bytes)
  } catch (error) {
    return (error as Error).message
  }
  const version = json.asset?.version ?? ''
  if (!version.startsWith('2.'))
    return `it is glTF ${version || 'of no version'}; only glTF 2.0 is drawn`
  const unsupported = unsupportedRequired(json.extensionsRequired)
  if (unsupported) return unsupported
  try {
    const reading = await io()
    return file.toLowerCase().endsWith('.glb')
      ? await reading.readBinary(bytes)
      : await reading.read(file)
  } catch (error) {
    return `it does not read: ${(error as Error).message}`
  }
}

/** Why the model in `bytes` cannot be drawn, or null when it can. */
export async function modelProblem(bytes: Uint8Array, file: string): Promise<string | null> {
  const model = await readModel(bytes, file)
  return typeof model === 'string' ? model : null
}

/**
 * The plausible sizes of a real object, in metres across (its largest side): from a ring to a
 * building. Outside them a model was almost surely exported in the wrong unit (centimetres or
 * millimetres read as metres, or the reverse), and AR would show it at that size.
 */
export const PLAUSIBLE_SIZE = { min: 0.01, max: 50 }

/** A length in metres, as an editor reads it (`1.4 m`, `5 mm`). */
export function metres(length: number): string {
  return length >= 0.1
    ? `${Number(length.toPrecision(3)).toLocaleString('en')} m`
    : `${Number((length * 1000).toPrecision(3)).toLocaleString('en')} mm`
}

/**
 * How large the model's scene is, in metres (the extent of its default scene, or its first, with
 * every node's transform), or null when it has no geometry.
 */
export function modelSize(document: Document): [number, number, number] | null {
  const box = modelBounds(document)
  return box ? (box.max.map((c, k) => c - box.min[k]!) as [number, number, number]) : null
}

/** A model's bounding box in its own coordinates (metres), corner to corner. */
export type ModelBounds = { min: [number, number, number]; max: [number, number, number] }

/**
 * The box around the model's default scene (or its first), with every node's transform: the
 * coordinates its hotspots are written in. Null when it has no geometry.
 */
export function modelBounds(document: Document): ModelBounds | null {
  const root = document.getRoot()
  const scene = root.getDefaultScene() ?? root.listScenes()[0]
  if (!scene) return null
  const { min, max } = getBounds(scene)
  return [...min, ...max].every(Number.isFinite)
    ? { min: [...min] as ModelBounds['min'], max: [...max] as ModelBounds['max'] }
    : null
}

/**
 * The names of the model's material variants (`KHR_materials_variants`: its finishes), in the
 * file's order; none when it has none. The viewer's row shows these names, or the slice's labels
 * for them.
 */
export function variantNames(document: Document): string[] {
  const extension = document
    .getRoot()
    .listExtensionsUsed()
    .find((used) => used.extensionName === KHRMaterialsVariants.EXTENSION_NAME) as
    KHRMaterialsVariants | undefined
  return extension?.listVariants().map((variant) => variant.getName()) ?? []
}

/** The names of the model's animations (its clips), in the file's order. */
export function clipNames(document: Document): string[] {
  return document
    .getRoot()
    .listAnimations()
    .map((animation) => animation.getName())
}

/** Why the model's size is not a real object's (see `PLAUSIBLE_SIZE`), or null. */
export function sizeProblem(size: [number, number, number] | null): string | null {
  if (!size) return null
  const across = Math.max(...size)
  if (across >= PLAUSIBLE_SIZE.min && across <= PLAUSIBLE_SIZE.max) return null
  return (
    `it is ${metres(across)} across (${size.map(metres).join(' × ')}); glTF is in metres and AR ` +
    `shows it at that size, so a real object is between ${metres(PLAUSIBLE_SIZE.min)} and ` +
    `${metres(PLAUSIBLE_SIZE.max)}: export it in metres (a scene set in centimetres or millimetres ` +
    `needs its unit, or the export's scale, changed)`
  )
}

/**
 * Every model under `<contentDir>/media` that cannot be drawn, each naming its file, and how many
 * models were read; of each that reads, by its path under `media/`, its bounds, its variants' and
 * its clips' names (for the model viewers' hotspots and finishes, hotspots-check.ts, and the
 * stories' steps, story-check.ts).
 */
export async function checkModels(contentDir: string): Promise<{
  problems: ContentProblem[]
  count: number
  bounds: Map<string, ModelBounds>
  variants: Map<string, string[]>
  clips: Map<string, string[]>
}> {
  const problems: ContentProblem[] = []
  const bounds = new Map<string, ModelBounds>()
  const variants = new Map<string, string[]>()
  const clips = new Map<string, string[]>()
  const files = modelFiles(path.join(contentDir, 'media'))
  for (const file of files) {
    const model = await readModel(readFileSync(file), file)
    if (typeof model !== 'string') {
      const name = path.relative(path.join(contentDir, 'media'), file)
      const box = modelBounds(model)
      if (box) bounds.set(name, box)
      variants.set(name, variantNames(model))
      clips.set(name, clipNames(model))
    }
    if (typeof model === 'string')
      problems.push({
        file: path.relative(contentDir, file),
        path: '(model)',
        message: `this model cannot be drawn: ${model}`,
      })
    else {
      const reason = sizeProblem(modelSize(model))
      if (reason)
        problems.push({
          file: path.relative(contentDir, file),
          path: '(model)',
          message: `this model's size is not a real object's: ${reason}`,
        })
    }
  }
  return { problems, count: files.length, bounds, variants, clips }
}
