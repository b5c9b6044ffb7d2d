// What the warm-up fetches for a model's decoders, from the model's bytes (renderer.tsx, `warm`).
// Apart from gltf-loader.ts, which brings three's GLTFLoader and the meshopt decoder: the
// renderer's first chunk holds this, and the model scenes' chunk (scenes/ModelScene.tsx) the
// loader, fetched only on a page with a model.
import { fetchAhead } from '../fetch-ahead'
import { lazyChunk } from './chunks'
import { DECODER_FILES, DECODER_WIRE_BYTES, DECODERS_PATH } from './decoders'

/** The loaders' chunk, imported once, by the first model that needs one of them. */
export const decodersChunk = lazyChunk(() => import('./decoders-lazy'))

export { DECODER_FILES, DECODER_WIRE_BYTES }

/**
 * The largest decoder the warm-up fetches ahead of the visitor: Draco's (59 KB) is, Basis's
 * (214 KB, more than most models) is fetched once the visitor engages, with its model's textures.
 */
export const DECODER_PREFETCH_MAX = 128 * 1024

/**
 * The extensions a GLB's JSON chunk says it uses; none for anything else (a `.gltf`, bytes that
 * are not glTF): its loader will say what it is.
 */
export function glbExtensionsUsed(bytes: ArrayBuffer): string[] {
  const view = new DataView(bytes)
  // Header: magic "glTF", version, length; then the JSON chunk: its length and type "JSON".
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== 0x46546c67) return []
  if (view.getUint32(16, true) !== 0x4e4f534a) return []
  const length = view.getUint32(12, true)
  if (20 + length > bytes.byteLength) return []
  try {
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 20, length))) as {
      extensionsUsed?: unknown
    }
    return Array.isArray(json.extensionsUsed)
      ? json.extensionsUsed.filter((e): e is string => typeof e === 'string')
      : []
  } catch {
    return []
  }
}

/**
 * Fetches, ahead of its loader, each decoder file the model in `bytes` will need (served for good
 * under a path that names three's revision, so the loader then finds them in the HTTP cache):
 * the renderer warmed up before its canvas (renderer.tsx, `warm`) has nothing to fetch after the
 * visitor's scroll but its context. Only decoders within `budget` bytes (the warm-up's cap, what
 * is left of it) and no larger than `DECODER_PREFETCH_MAX`; the others are fetched by their loader
 * once the visitor is here. Returns the bytes it set out to fetch. Failures are left for the
 * loader to meet and report.
 */
export function prefetchDecoders(bytes: ArrayBuffer, budget = Infinity): number {
  const base = new URL(DECODERS_PATH, self.location.origin)
  const used = glbExtensionsUsed(bytes)
  let spent = 0
  for (const extension of used) {
    const files = DECODER_FILES[extension]
    const size = DECODER_WIRE_BYTES[extension] ?? 0
    if (!files || size > DECODER_PREFETCH_MAX || spent + size > budget) continue
    spent += size
    for (const file of files) void fetchAhead(new URL(file, base))
  }
  // The loaders' own code (a chunk of its own, decoders-lazy.ts), for a model that needs any.
  if (used.some((extension) => extension in DECODER_FILES)) decodersChunk.start()
  return spent
}
