import type { Document, Transform } from '@gltf-transform/core'
import {
  dedup,
  dequantize,
  meshopt,
  prune,
  resample,
  simplify,
  textureCompress,
  weld,
} from '@gltf-transform/functions'
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer'
import sharp from 'sharp'
import { aligned, documentStats, isGlb, type ModelStats } from './inspect'
import { modelIO } from './io'
import { checkBytes, checkContents } from './limits'
import { TIER_BUDGETS, type ModelParams } from './params'
import { documentToUsdz } from './usdz'

/**
 * A model variant, as glTF-Transform composes one: `params` → `plan` (which transforms, with
 * which options) → one `document.transform(...)`. The transforms are the library's own.
 *
 * Textures are re-encoded as WebP, not KTX2. Measured on this project's 2-core machine with
 * ktx2-encoder 0.6 (Basis ETC1S, quality 128, effort 1, with mipmaps): 7.4 s for one 1024 px map
 * and 20.8 s for one 2048 px map, so the heavy scan's four maps would take about 30 s (low) and
 * 83 s (high) against a cold-render budget of 20 s. sharp's WebP (quality 85, effort 4) takes
 * 0.25 s and 0.9 s. Textures that are already KTX2 are kept as they are (sharp cannot read
 * them), and count in the GPU budget at their block-compressed size.
 */

/** The WebP quality of re-encoded maps: no visible loss on a model's texture at its size. */
export const TEXTURE_QUALITY = 85

/** The JPEG quality of maps converted for a phone's AR viewer (`ar`): no visible loss close up. */
export const AR_JPEG_QUALITY = 90

/** The tolerance of the animation resampler (glTF-Transform's default). */
const RESAMPLE_TOLERANCE = 1e-4

/** Extensions whose data the pipeline decodes and writes in another form. */
const REWRITTEN_EXTENSIONS = [
  'KHR_draco_mesh_compression',
  'EXT_meshopt_compression',
  'KHR_meshopt_compression',
]

/** One variant's plan: the transforms, in order. */
export function planModel(params: ModelParams, stats: ModelStats): Transform[] {
  const budget = TIER_BUDGETS[params.tier]
  const plan: Transform[] = [dedup(), prune(), dequantize(), weld()]
  if (stats.triangles > params.maxTriangles)
    plan.push(
      simplify({
        simplifier: MeshoptSimplifier,
        ratio: params.maxTriangles / stats.triangles,
        error: budget.maxError,
      }),
    )
  if (stats.animations.length) plan.push(resample({ tolerance: RESAMPLE_TOLERANCE }))
  if (params.tier === 'ar') {
    const resize: [number, number] = [params.maxTexture, params.maxTexture]
    plan.push(
      // PNG and JPEG maps resized in their own format; WebP and AVIF maps (which a native AR
      // viewer may not read) become JPEG, or PNG where their slot needs alpha (textureCompress
      // skips those for JPEG). KTX2 maps stay as they are: sharp cannot read them.
      textureCompress({ encoder: sharp, formats: /^image\/(png|jpeg)$/, resize }),
      textureCompress({
        encoder: sharp,
        targetFormat: 'jpeg',
        formats: /^image\/(webp|avif)$/,
        resize,
        quality: AR_JPEG_QUALITY,
      }),
      textureCompress({
        encoder: sharp,
        targetFormat: 'png',
        formats: /^image\/(webp|avif)$/,
        resize,
      }),
      prune(),
    )
    return plan
  }
  plan.push(
    textureCompress({
      encoder: sharp,
      targetFormat: 'webp',
      resize: [params.maxTexture, params.maxTexture],
      quality: TEXTURE_QUALITY,
      effort: 4,
    }),
    prune(),
    meshopt({ encoder: MeshoptEncoder, level: 'medium' }),
  )
  return plan
}

/**
 * Makes the variant of a model that `params` asks for: a GLB with EXT_meshopt_compression
 * geometry (plain geometry for `ar`), WebP maps (JPEG or PNG for `ar`) no larger than the ceiling, and for a mesh over the triangle budget a
 * simplified one (within the tier's error bound, so a mesh that cannot reach the budget without
 * losing its shape keeps more triangles). Animations are resampled and kept; skins and morph
 * targets are kept. Throws `ModelRefused` for a model over a limit (./limits.ts).
 *
 * CPU-bound for seconds on a large model: servers run it through ./render.ts (a child process),
 * never on their own event loop.
 */
export async function optimizeModel(
  bytes: Uint8Array,
  params: ModelParams,
): Promise<{ glb: Uint8Array; stats: ModelStats; source: ModelStats }> {
  checkBytes(bytes.byteLength)
  bytes = aligned(bytes)
  const io = await modelIO()
  const doc: Document = isGlb(bytes)
    ? await io.readBinary(bytes)
    : await io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} })
  const source = documentStats(doc, bytes.byteLength)
  checkContents(source)
  // Decoded on read; written again as meshopt (or plain, for what meshopt() leaves).
  for (const extension of doc.getRoot().listExtensionsUsed())
    if (REWRITTEN_EXTENSIONS.includes(extension.extensionName)) extension.dispose()
  await doc.transform(...planModel(params, source))
  // `glb`: the variant's bytes, a USDZ package when `params` asks for one (./usdz.ts).
  const glb =
    params.format === 'usdz'
      ? documentToUsdz(doc, params.placement ?? 'floor')
      : await io.writeBinary(doc)
  return { glb, stats: documentStats(doc, glb.byteLength), source }
}
