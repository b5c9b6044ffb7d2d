/**
 * Facet's model parameters: what a model URL's query may ask of the media route and of
 * `/3d-models` (docs/3d-models.md). A small set, as imgix's are for images: the renderer's GPU
 * tier, and two expert ceilings that refine it. Without `tier`, the original bytes.
 */

/**
 * The renderer's GPU tiers (src/three/render/resolution.ts), and `ar`: the file a phone's own AR
 * viewer fetches (Scene Viewer on Android, docs/3d-models.md), plain glTF with JPEG or PNG maps.
 */
export const TIERS = ['low', 'high', 'ar'] as const
export type Tier = (typeof TIERS)[number]

/** What one tier's variant aims at. */
export type TierBudget = {
  /** The largest texture side, in pixels: bigger maps are resized to fit. */
  maxTexture: number
  /** Triangles: a mesh over this is simplified (within `maxError`) toward it. */
  maxTriangles: number
  /** The simplifier's error bound, as a fraction of each mesh's radius. */
  maxError: number
  /** What the variant should weigh at most (held to in content:check and the bench). */
  maxBytes: number
  /** GPU texture memory the variant should need at most (RGBA8 with mipmaps). */
  maxGpuTextureBytes: number
}

const MB = 1024 * 1024

/**
 * The tiers' budgets (issue 33). The high tier keeps full geometry up to 2 M triangles, a cap a
 * desktop GPU draws at a steady frame rate; a mesh over it is simplified like the low tier's.
 * Its texture memory is bounded by its texture ceiling only.
 */
export const TIER_BUDGETS: Record<Tier, TierBudget> = {
  low: {
    maxTexture: 1024,
    maxTriangles: 250_000,
    maxError: 0.01,
    maxBytes: 4 * MB,
    maxGpuTextureBytes: 64 * MB,
  },
  high: {
    maxTexture: 2048,
    maxTriangles: 2_000_000,
    maxError: 0.001,
    maxBytes: 12 * MB,
    maxGpuTextureBytes: 256 * MB,
  },
  // A phone's AR viewer draws the model close up, in the visitor's room: the low tier's
  // geometry, maps up to 2048 px, and none of the compression extensions a native viewer may
  // not decode (meshopt, Draco, WebP, AVIF).
  ar: {
    maxTexture: 2048,
    maxTriangles: 250_000,
    maxError: 0.01,
    maxBytes: 15 * MB,
    maxGpuTextureBytes: 256 * MB,
  },
}

/** The ranges the expert parameters accept. */
export const MAXTEX_RANGE = { min: 64, max: 4096 } as const
export const MAXTRIS_RANGE = { min: 1000, max: 5_000_000 } as const

/** A variant's file format: GLB, or USDZ for AR Quick Look (made from the `ar` tier). */
export type ModelFormat = 'glb' | 'usdz'

/** Where AR Quick Look places a USDZ variant: on the floor or on a wall (baked into the file). */
export type ModelPlacement = 'floor' | 'wall'

/** A variant's parameters, normalized: two URLs that mean the same variant give equal values. */
export type ModelParams = {
  tier: Tier
  /** GLB unless `format=usdz` (which implies `tier=ar`). */
  format?: ModelFormat
  /** A USDZ's placement (`placement=wall`; the floor by default). */
  placement?: ModelPlacement
  /** The texture ceiling (the tier's, or `maxtex` when lower). */
  maxTexture: number
  /** The triangle budget (the tier's, or `maxtris` when lower). */
  maxTriangles: number
}

/** The query names Facet reads on a model URL. */
export const MODEL_PARAMS = ['tier', 'maxtex', 'maxtris', 'format', 'placement'] as const

/** A model URL's query that asks for something this service does not do: answered 400. */
export class ModelParamError extends Error {
  readonly status = 400
  constructor(message: string) {
    super(message)
    this.name = 'ModelParamError'
  }
}

/** The params of a tier, with no expert ceiling. */
export function tierParams(tier: Tier): ModelParams {
  const budget = TIER_BUDGETS[tier]
  return { tier, maxTexture: budget.maxTexture, maxTriangles: budget.maxTriangles }
}

function integer(query: URLSearchParams, name: string, range: { min: number; max: number }) {
  const raw = query.get(name)
  if (raw === null) return undefined
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < range.min || value > range.max)
    throw new ModelParamError(
      `invalid ${name} "${raw}": expected an integer from ${range.min} to ${range.max}`,
    )
  return value
}

/**
 * The variant a query asks for, or null when it asks for none (the original bytes). Other query
 * names (`v`, a CDN's own) are ignored, as the image service ignores what it does not know.
 * Throws `ModelParamError` for an unknown tier, a malformed ceiling, or a ceiling without a tier.
 */
export function parseModelParams(query: URLSearchParams): ModelParams | null {
  const format = query.get('format')
  const placement = query.get('placement')
  if (format !== null && format !== 'glb' && format !== 'usdz')
    throw new ModelParamError(`invalid format "${format}": expected glb or usdz`)
  if (placement !== null && placement !== 'floor' && placement !== 'wall')
    throw new ModelParamError(`invalid placement "${placement}": expected floor or wall`)
  if (placement !== null && format !== 'usdz')
    throw new ModelParamError('placement is baked into a USDZ file: add format=usdz')
  if (format === 'usdz') {
    const tier = query.get('tier')
    if (tier !== null && tier !== 'ar')
      throw new ModelParamError(`format=usdz is made from tier=ar, not tier=${tier}`)
    const params = parseModelParams(withTier(query, 'ar'))!
    return { ...params, format: 'usdz', placement: placement === 'wall' ? 'wall' : 'floor' }
  }
  const tier = query.get('tier')
  const maxtex = integer(query, 'maxtex', MAXTEX_RANGE)
  const maxtris = integer(query, 'maxtris', MAXTRIS_RANGE)
  if (tier === null) {
    if (maxtex !== undefined || maxtris !== undefined)
      throw new ModelParamError(
        'maxtex and maxtris refine a tier: add tier=low, tier=high or tier=ar',
      )
    return null
  }
  if (!(TIERS as readonly string[]).includes(tier))
    throw new ModelParamError(`invalid tier "${tier}": expected one of ${TIERS.join(', ')}`)
  const params = tierParams(tier as Tier)
  return {
    tier: params.tier,
    maxTexture: Math.min(params.maxTexture, maxtex ?? Infinity),
    maxTriangles: Math.min(params.maxTriangles, maxtris ?? Infinity),
  }
}

/** `query` with `tier` set and `format` and `placement` left out (a USDZ's GLB params). */
function withTier(query: URLSearchParams, tier: Tier): URLSearchParams {
  const next = new URLSearchParams(query)
  next.set('tier', tier)
  next.delete('format')
  next.delete('placement')
  return next
}

/** The params of a USDZ variant (from the `ar` tier), placed on the floor or a wall. */
export function usdzParams(placement: ModelPlacement = 'floor'): ModelParams {
  return { ...tierParams('ar'), format: 'usdz', placement }
}

/**
 * A short, stable name of normalized params, for cache keys: `low-1024-250000`, and
 * `ar-2048-250000-usdz-wall` for a USDZ.
 */
export function paramsKey(params: ModelParams): string {
  const base = `${params.tier}-${params.maxTexture}-${params.maxTriangles}`
  return params.format === 'usdz' ? `${base}-usdz-${params.placement ?? 'floor'}` : base
}

/** The variant's file extension and content type. */
export function variantType(params: ModelParams): { extension: string; contentType: string } {
  return params.format === 'usdz'
    ? { extension: 'usdz', contentType: 'model/vnd.usdz+zip' }
    : { extension: 'glb', contentType: 'model/gltf-binary' }
}
