import {
  COMPRESS_QUALITY,
  DEFAULT_QUALITY,
  MAX_OUTPUT_SIDE,
  resolveRect,
  type ImageParams,
  type OutputFormat,
} from './params'

/**
 * What to do to one source for one request: the region to cut, the size to make it and how, and
 * the format to write. Two requests with the same plan get the same bytes, so the plan (not the
 * query string) is what the cache is keyed by: `?w=640&auto=format` and `?auto=format&w=640.0`
 * are one variant.
 */
export type ImagePlan = {
  extract?: { left: number; top: number; width: number; height: number }
  /** How the region becomes `width` × `height` (sharp's fit names); absent: kept as it is. */
  resize?: {
    fit: 'cover' | 'fill' | 'contain'
    position?: string
    background?: string
    /** Pad to the frame without growing the image (`fit=fillmax`). */
    withoutEnlargement?: boolean
  }
  width: number
  height: number
  format: OutputFormat
  quality: number
}

export type SourceInfo = { width: number; height: number; format: string; hasAlpha: boolean }

const KEEPS_FORMAT = new Set(['jpeg', 'png', 'webp', 'avif'])

/**
 * The format of the answer. `fm` wins; `auto=format` serves "AVIF whenever possible, falling back
 * to WebP, then PNG8 (for images with transparency) or JPEG" by the request's `Accept` (imgix,
 * auto); otherwise the source's own format.
 */
export function chooseFormat(
  params: ImageParams,
  source: SourceInfo,
  accept: string,
): OutputFormat {
  if (params.fm) return params.fm
  if (params.autoFormat) {
    if (/\bimage\/avif\b/i.test(accept)) return 'avif'
    if (/\bimage\/webp\b/i.test(accept)) return 'webp'
    return source.hasAlpha ? 'png' : 'jpeg'
  }
  if (KEEPS_FORMAT.has(source.format)) return source.format as OutputFormat
  return source.hasAlpha ? 'png' : 'jpeg'
}

type Box = { width?: number; height?: number }

/** `w` and `h` in pixels of the region, `dpr` applied ("you must specify a width, a height, or
 * both for this parameter to work"). */
function requestedBox(params: ImageParams, region: { width: number; height: number }): Box {
  const side = (v: ImageParams['w'], total: number) =>
    v === undefined ? undefined : ('px' in v ? v.px : v.ratio * total) * params.dpr
  return { width: side(params.w, region.width), height: side(params.h, region.height) }
}

/** `ar=W:H` "works only when either fit=crop or fit=fill is set" (imgix, size/ar). */
function withAspectRatio(box: Box, params: ImageParams, region: Box & Required<Box>): Box {
  const ar = params.ar
  if (!ar || !['crop', 'min', 'fill', 'fillmax'].includes(params.fit)) return box
  if (box.width && !box.height) return { width: box.width, height: box.width / ar }
  if (box.height && !box.width) return { width: box.height * ar, height: box.height }
  if (box.width && box.height) {
    // Both: the largest box of that ratio inside the one asked for.
    return box.width / box.height > ar
      ? { width: box.height * ar, height: box.height }
      : { width: box.width, height: box.width / ar }
  }
  // Neither: reframed at the source's own resolution, cut down (crop) or grown (fill).
  const wider = region.width / region.height > ar
  const cut = params.fit === 'crop' || params.fit === 'min'
  if (wider === cut) return { width: region.height * ar, height: region.height }
  return { width: region.width, height: region.width / ar }
}

/** Scales a size down, keeping its shape, until no side passes imgix's 8192 px limit. */
function bounded(width: number, height: number): { width: number; height: number } {
  const k = Math.min(1, MAX_OUTPUT_SIDE / width, MAX_OUTPUT_SIDE / height)
  return {
    width: Math.max(1, Math.round(width * k)),
    height: Math.max(1, Math.round(height * k)),
  }
}

/** The output size and resize mode of each `fit` (imgix, size/fit). */
function sized(
  params: ImageParams,
  box: Box,
  region: { width: number; height: number },
): Pick<ImagePlan, 'width' | 'height' | 'resize'> {
  const { fit } = params
  const scaleTo = (s: number) => ({ width: region.width * s, height: region.height * s })
  const keepShape = (upscale: boolean) => {
    let s = Math.min(
      box.width ? box.width / region.width : Infinity,
      box.height ? box.height / region.height : Infinity,
    )
    if (!upscale) s = Math.min(s, 1)
    // The size is computed here, so sharp is told it exactly: its own `inside` rounds the other
    // side first (2400 × 1600 to 1280 wide gives 853 high, then 1279 wide).
    return { ...bounded(scaleTo(s).width, scaleTo(s).height), resize: { fit: 'fill' as const } }
  }
  if (!box.width && !box.height) return { ...region }
  if (fit === 'scale') {
    const out = bounded(
      box.width ?? region.width * (box.height! / region.height),
      box.height ?? region.height * (box.width! / region.width),
    )
    return { ...out, resize: { fit: 'fill' } }
  }
  // With one side only, crop and fill have nothing to cut or pad: they keep the shape.
  if (!box.width || !box.height) return keepShape(fit !== 'max' && fit !== 'min')
  if (fit === 'crop' || fit === 'min') {
    // `min` "will not exceed the original width and height": the same shape, at most native.
    const k = fit === 'min' ? Math.min(1, region.width / box.width, region.height / box.height) : 1
    return {
      ...bounded(box.width * k, box.height * k),
      resize: { fit: 'cover', position: params.position },
    }
  }
  if (fit === 'fill' || fit === 'fillmax') {
    // fillmax does not upscale the image inside the frame; contain pads it to the frame.
    const frame = bounded(box.width, box.height)
    return {
      ...frame,
      resize: {
        fit: 'contain',
        // imgix's fill colour when none is named; ours for the formats without alpha.
        background: params.fillColor ?? '#ffffff',
        withoutEnlargement: fit === 'fillmax',
      },
    }
  }
  return keepShape(fit !== 'max')
}

/**
 * Scales an output down, keeping its shape, until it holds no more pixels than the source (to
 * the rounding of a pixel).
 * imgix itself grows an image past its source under `fit=clip`, `crop` or `fill` (only its
 * 8192 px side limit bounds it, above); Facet's local mode does not, as Fastly's image service
 * does not by default ("Prevent images being resized such that the output image's dimensions are
 * larger than the source image", docs.fastly.com/en/image-optimization-api/disable). Growing adds
 * bytes and render time and no detail: `w=8000&h=8000&fit=fill&fm=png` on a 2400 × 1600 photograph
 * took 13 s to render; bounded, it is the 3.8 MP the source holds. Our choice, for local mode:
 * hosted Prismic keeps imgix's own rules.
 */
function withinSource(
  out: Pick<ImagePlan, 'width' | 'height' | 'resize'>,
  source: SourceInfo,
): Pick<ImagePlan, 'width' | 'height' | 'resize'> {
  const k = Math.min(1, Math.sqrt((source.width * source.height) / (out.width * out.height)))
  if (k >= 1) return out
  return {
    ...out,
    width: Math.max(1, Math.round(out.width * k)),
    height: Math.max(1, Math.round(out.height * k)),
  }
}

/** Turns a request's parameters into the plan for one source. */
export function planImage(params: ImageParams, source: SourceInfo, accept: string): ImagePlan {
  const region = resolveRect(params, source.width, source.height)
  const whole = region.width === source.width && region.height === source.height
  const box = withAspectRatio(requestedBox(params, region), params, region)
  const format = chooseFormat(params, source, accept)
  return {
    ...(whole ? {} : { extract: region }),
    ...withinSource(sized(params, box, region), source),
    format,
    quality: params.q ?? (params.autoCompress ? COMPRESS_QUALITY : DEFAULT_QUALITY),
  }
}

/**
 * True when the plan would give back the source itself: no cut, no resize, the same format and
 * no compression asked. The file is then served as it is, byte for byte.
 */
export function isIdentity(plan: ImagePlan, params: ImageParams, source: SourceInfo): boolean {
  return (
    !plan.extract &&
    plan.width === source.width &&
    plan.height === source.height &&
    plan.format === source.format &&
    params.q === undefined &&
    !params.autoCompress
  )
}
