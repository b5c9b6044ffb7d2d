/**
 * The imgix Rendering API parameters that Prismic's image URLs and the official helpers use
 * (`asImageSrc`, `asImageWidthSrcSet`, `asImagePixelDensitySrcSet`, `PrismicNextImage`), read the
 * way imgix reads them: an unknown parameter or a value imgix would not accept is ignored (imgix
 * answers the image without it rather than an error), and numbers out of range are clamped to
 * imgix's documented limits. Hand-written: no library parses imgix URLs on the serving side.
 *
 * Sources, docs.imgix.com/apis/rendering: `w`/`h` (size/w, size/h), `fit` (size/fit), `rect`
 * (size/rect), `ar` (size/ar), `dpr` (pixel-density), `q` (format/output-quality), `fm`
 * (format/output-format), `auto` (auto), `fill`/`fill-color` (fill), `crop` (size/crop).
 */

/** imgix's largest output: "The maximum output image size on Imgix is 8192×8192 pixels. All
 * output images will be sized down to accommodate this limit" (size/w). */
export const MAX_OUTPUT_SIDE = 8192
/** `dpr`: "The default is 1 and the maximum value is 5" (pixel-density). */
export const MAX_DPR = 5
/** `q`: 0 to 100, default 75; 45 under `auto=compress` unless `q` is given (format/output-quality). */
export const DEFAULT_QUALITY = 75
export const COMPRESS_QUALITY = 45

export type Fit = 'clip' | 'crop' | 'max' | 'min' | 'fill' | 'fillmax' | 'scale'
const FITS = new Set<Fit>(['clip', 'crop', 'max', 'min', 'fill', 'fillmax', 'scale'])

/** Output formats this service writes. */
export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif'
const FM: Record<string, OutputFormat> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  pjpg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
}

/** One side of `rect` as written: pixels, a ratio of the source, or a keyword. */
type RectValue = { px: number } | { ratio: number } | { keyword: string }

/** The parameters of one request, parsed and clamped, not yet applied to a source. */
export type ImageParams = {
  w?: SizeValue
  h?: SizeValue
  fit: Fit
  rect?: [RectValue, RectValue, RectValue, RectValue]
  /** Width over height, from `ar=W:H`. */
  ar?: number
  dpr: number
  q?: number
  fm?: OutputFormat
  autoFormat: boolean
  autoCompress: boolean
  /** `crop=`: where `fit=crop` keeps the image (sharp's gravity names). */
  position: string
  /** `fill-color` for `fit=fill`, as a CSS hex colour. */
  fillColor?: string
}

/** `w` or `h`: "a positive integer, interpreted as pixels … a float between 0.0 and 1.0,
 * interpreted as a ratio in relation to the source image size" (size/w). */
export type SizeValue = { px: number } | { ratio: number }

function number(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : undefined
}

function size(raw: string | null): SizeValue | undefined {
  const n = number(raw)
  if (n === undefined || n <= 0) return undefined
  if (n < 1 || (n === 1 && raw!.includes('.'))) return { ratio: n }
  return { px: Math.min(Math.round(n), MAX_OUTPUT_SIDE) }
}

function rectValue(raw: string): RectValue | undefined {
  const value = raw.trim().toLowerCase()
  if (['left', 'center', 'right', 'top', 'middle', 'bottom', 'full'].includes(value))
    return { keyword: value }
  const n = number(value)
  if (n === undefined || n < 0) return undefined
  return n < 1 || (n === 1 && value.includes('.')) ? { ratio: n } : { px: Math.round(n) }
}

function rect(raw: string | null): ImageParams['rect'] {
  if (!raw) return undefined
  const parts = raw.split(',').map(rectValue)
  if (parts.length !== 4 || parts.some((p) => p === undefined)) return undefined
  return parts as ImageParams['rect']
}

function aspectRatio(raw: string | null): number | undefined {
  const match = raw?.match(/^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$/)
  if (!match) return undefined
  const ratio = Number(match[1]) / Number(match[2])
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined
}

/** imgix's `crop` modes for `fit=crop`, as sharp's positions ("center" unless named). */
function position(raw: string | null): string {
  const modes = new Set((raw ?? '').split(',').map((m) => m.trim().toLowerCase()))
  const vertical = modes.has('top') ? 'top' : modes.has('bottom') ? 'bottom' : ''
  const horizontal = modes.has('left') ? 'left' : modes.has('right') ? 'right' : ''
  if (vertical && horizontal) return `${horizontal} ${vertical}`
  return vertical || horizontal || (modes.has('entropy') ? 'entropy' : 'centre')
}

function hexColor(raw: string | null): string | undefined {
  const value = raw?.trim().replace(/^#/, '')
  if (!value || !/^([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value))
    return undefined
  return `#${value}`
}

/** Reads the imgix parameters of a query string. Never throws: bad values are left out. */
export function parseImageParams(query: URLSearchParams): ImageParams {
  // `auto` "is the only parameter that can be combined by reiteration" (auto).
  const auto = new Set(
    query
      .getAll('auto')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim()),
  )
  const fit = query.get('fit') as Fit | null
  const dpr = number(query.get('dpr'))
  const q = number(query.get('q'))
  return {
    // `width` and `height` are imgix's aliases of `w` and `h`; the official helpers'
    // `buildWidthSrcSet` (imgix-url-builder) writes `width`.
    w: size(query.get('w') ?? query.get('width')),
    h: size(query.get('h') ?? query.get('height')),
    fit: fit && FITS.has(fit) ? fit : 'clip',
    rect: rect(query.get('rect')),
    ar: aspectRatio(query.get('ar')),
    dpr: dpr !== undefined && dpr > 0 ? Math.min(dpr, MAX_DPR) : 1,
    q: q === undefined ? undefined : Math.round(Math.min(100, Math.max(0, q))),
    fm: FM[(query.get('fm') ?? '').toLowerCase()],
    autoFormat: auto.has('format'),
    autoCompress: auto.has('compress'),
    position: position(query.get('crop')),
    fillColor: hexColor(query.get('fill-color')),
  }
}

/** The source pixels `rect` selects, clamped into the image ("by default, the entire image"). */
export function resolveRect(
  params: ImageParams,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } {
  const full = { left: 0, top: 0, width, height }
  if (!params.rect) return full
  const [rx, ry, rw, rh] = params.rect
  const extent = (v: RectValue, total: number) =>
    'px' in v ? v.px : 'ratio' in v ? v.ratio * total : v.keyword === 'full' ? total : undefined
  const w = Math.min(width, Math.round(extent(rw, width) ?? width))
  const h = Math.min(height, Math.round(extent(rh, height) ?? height))
  const offset = (v: RectValue, total: number, own: number) => {
    if ('px' in v) return v.px
    if ('ratio' in v) return v.ratio * total
    if (v.keyword === 'center' || v.keyword === 'middle') return (total - own) / 2
    if (v.keyword === 'right' || v.keyword === 'bottom') return total - own
    return 0
  }
  // A rectangle that runs past the image keeps the part inside it.
  const left = Math.max(0, Math.min(width - 1, Math.round(offset(rx, width, w))))
  const top = Math.max(0, Math.min(height - 1, Math.round(offset(ry, height, h))))
  const inside = { width: Math.min(w, width - left), height: Math.min(h, height - top) }
  if (inside.width < 1 || inside.height < 1) return full
  return { left, top, ...inside }
}
