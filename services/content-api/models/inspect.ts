import { ImageUtils, Primitive, type Document } from '@gltf-transform/core'
import { modelSize } from '../models-check'
import { modelIO } from './io'
import { isGlb } from './sniff'

/** What a model costs a visitor: bytes on the wire, triangles to draw, textures to hold. */
export type ModelStats = {
  /** The file's size. */
  bytes: number
  /** Triangles over every mesh's triangle primitives (each mesh once, however many nodes use it). */
  triangles: number
  /** Every texture image, in the file's order. */
  textures: { width: number; height: number; mimeType: string }[]
  /**
   * GPU memory the textures need once uploaded: RGBA8 with a full mip chain
   * (width × height × 4 × 4/3) for PNG, JPEG, WebP and AVIF, which the GPU holds decoded; for
   * KTX2, glTF-Transform's estimate of the block-compressed size it transcodes to.
   */
  gpuTextureBytes: number
  /** The names of the animation clips. */
  animations: string[]
}

/** The triangles a primitive draws: TRIANGLES, TRIANGLE_STRIP or TRIANGLE_FAN; else none. */
function trianglesOf(prim: Primitive): number {
  const count = (prim.getIndices() ?? prim.getAttribute('POSITION'))?.getCount() ?? 0
  const mode = prim.getMode()
  if (mode === Primitive.Mode.TRIANGLES) return Math.floor(count / 3)
  if (mode === Primitive.Mode.TRIANGLE_STRIP || mode === Primitive.Mode.TRIANGLE_FAN)
    return Math.max(0, count - 2)
  return 0
}

/** The stats of a document already read; `bytes` is the size of the file it came from. */
export function documentStats(doc: Document, bytes: number): ModelStats {
  const root = doc.getRoot()
  let triangles = 0
  for (const mesh of root.listMeshes())
    for (const prim of mesh.listPrimitives()) triangles += trianglesOf(prim)
  let gpuTextureBytes = 0
  const textures: ModelStats['textures'] = []
  for (const texture of root.listTextures()) {
    const image = texture.getImage()
    const mimeType = texture.getMimeType()
    const [width, height] = (image && ImageUtils.getSize(image, mimeType)) ?? [0, 0]
    textures.push({ width, height, mimeType })
    gpuTextureBytes +=
      mimeType === 'image/ktx2' && image
        ? Math.round(ImageUtils.getVRAMByteLength(image, mimeType) ?? 0)
        : Math.round((width * height * 4 * 4) / 3)
  }
  return {
    bytes,
    triangles,
    textures,
    gpuTextureBytes,
    animations: root.listAnimations().map((a, i) => a.getName() || `clip ${i}`),
  }
}

/**
 * Reads a GLB (or a self-contained `.gltf`) and says what it costs: bytes, triangles, texture
 * sizes and their GPU memory. Decodes Draco and meshopt geometry; throws when the file does not
 * read as glTF.
 */
export async function inspectModel(bytes: Uint8Array): Promise<ModelStats> {
  return documentStats(await readDocument(bytes), bytes.byteLength)
}

/** The model in `bytes` (a GLB, or glTF JSON with its buffers embedded) as a glTF-Transform document. */
async function readDocument(bytes: Uint8Array): Promise<Document> {
  bytes = aligned(bytes)
  const io = await modelIO()
  return isGlb(bytes)
    ? io.readBinary(bytes)
    : io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} })
}

/**
 * `inspectModel`'s stats and the model's size in metres (x, y, z: see `modelSize`; null when it has
 * no geometry), from one read of the file.
 */
export async function inspectModelAndSize(
  bytes: Uint8Array,
): Promise<{ stats: ModelStats; size: [number, number, number] | null }> {
  const doc = await readDocument(bytes)
  return { stats: documentStats(doc, bytes.byteLength), size: modelSize(doc) }
}

/**
 * `bytes` where glTF-Transform can read them: its GLB reader views the header as 32-bit words,
 * which needs an offset that is a multiple of 4 (a Buffer from a pool, or one that came through
 * IPC, may have another).
 */
export function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes)
}

export { isGlb }
