// `content:check`'s models: every glTF model in the media folder is read as the renderer would
// read it (the container, the JSON, the required extensions, then every buffer and compressed
// mesh decoded with glTF-Transform), so a file that cannot be drawn is named in CI, not found
// by a visitor. A problem names the file and the reason, as the browser's console line does.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Logger, NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import draco3d from 'draco3dgltf'
import { MeshoptDecoder } from 'meshoptimizer'
import { unsupportedRequired } from '../../src/three/model-formats'
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

/** Why the model in `bytes` cannot be drawn, or null when it can. */
export async function modelProblem(bytes: Uint8Array, file: string): Promise<string | null> {
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
    if (file.toLowerCase().endsWith('.glb')) await reading.readBinary(bytes)
    else await reading.read(file)
  } catch (error) {
    return `it does not read: ${(error as Error).message}`
  }
  return null
}

/**
 * Every model under `<contentDir>/media` that cannot be drawn, each naming its file, and how many
 * models were read.
 */
export async function checkModels(
  contentDir: string,
): Promise<{ problems: ContentProblem[]; count: number }> {
  const problems: ContentProblem[] = []
  const files = modelFiles(path.join(contentDir, 'media'))
  for (const file of files) {
    const reason = await modelProblem(readFileSync(file), file)
    if (reason)
      problems.push({
        file: path.relative(contentDir, file),
        path: '(model)',
        message: `this model cannot be drawn: ${reason}`,
      })
  }
  return { problems, count: files.length }
}
