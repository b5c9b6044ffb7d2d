/**
 * Image fields in Prismic's shape: one view (the field itself, or one of its thumbnails) is a
 * `url` on the image CDN with Prismic's default `auto=compress,format`, plus the crop's `rect`
 * and the view's `w`/`h` when it is cropped or resized; `dimensions` are the view's own; `edit`
 * is `{ x, y, zoom, background }`. The relation between the crop and those values is the one of
 * Prismic's own code: `getCroppedImage` and `buildCropURL` in `@prismicio/types-internal`
 * (helpers/imageContent), and the API's example answer in Prismic's image docs
 * (`?auto=compress,format&rect=255,0,1536,1536&w=500&h=500` for a 500 × 500 view).
 */

/** Prismic's default parameters on every image URL (prismic.io/docs/image, the API example). */
export const PRISMIC_IMAGE_DEFAULTS = 'auto=compress,format'

/** The file behind a view: where it is (URL without query) and its full size. */
export type ImageOrigin = { url: string; width: number; height: number; raster: boolean }

/** A crop in the original's pixels, as the content format writes it. */
export type Crop = { x: number; y: number; width: number; height: number }

/** A model's size for a view: the field's `constraint` or a thumbnail's `width`/`height`. */
export type ViewConstraint = { width?: number | null; height?: number | null }

/** One view of an image field, as Prismic's API returns it (alt, copyright and id aside). */
export type ImageView = {
  url: string
  dimensions: { width: number; height: number }
  edit: { x: number; y: number; zoom: number; background: string }
}

/** Where a view came from: its file and the crop its document wrote. */
export type ViewSource = { origin: ImageOrigin; crop?: Crop }

// Kept beside the JSON (a WeakMap, so nothing leaks into answers): the store expands images
// without the models, and the validator, which reads the models, cuts thumbnails from them.
const sources = new WeakMap<object, ViewSource>()

/** Remembers which file (and crop) a view was made from, so the model can be applied later. */
export function rememberSource<T extends object>(view: T, source: ViewSource): T {
  sources.set(view, source)
  return view
}

/** The file and crop a view was made from (undefined for values the store did not expand). */
export function sourceOf(view: object): ViewSource | undefined {
  return sources.get(view)
}

/** The largest box of `aspect` (width / height) centred in the original. */
function centredCrop(origin: ImageOrigin, aspect: number): Crop {
  const wider = origin.width / origin.height > aspect
  const width = wider ? Math.round(origin.height * aspect) : origin.width
  const height = wider ? origin.height : Math.round(origin.width / aspect)
  return {
    x: Math.round((origin.width - width) / 2),
    y: Math.round((origin.height - height) / 2),
    width,
    height,
  }
}

/** The view's size: the constraint's, or the crop's scaled to the one side it names. */
function viewSize(crop: Crop, c: ViewConstraint): { width: number; height: number } {
  if (c.width && c.height) return { width: c.width, height: c.height }
  if (c.width) return { width: c.width, height: Math.round((c.width * crop.height) / crop.width) }
  if (c.height)
    return { width: Math.round((c.height * crop.width) / crop.height), height: c.height }
  return { width: crop.width, height: crop.height }
}

/**
 * One view of an image: the editor's crop (or, for a constraint with both sides, the largest
 * centred crop of its shape, as Prismic crops an upload to a thumbnail's size), sized to the
 * constraint. SVG and other files the CDN does not render keep their own size and no crop.
 */
export function imageView(
  origin: ImageOrigin,
  crop?: Crop,
  constraint: ViewConstraint = {},
): ImageView {
  const full = { x: 0, y: 0, width: origin.width, height: origin.height }
  if (!origin.raster || !origin.width || !origin.height) {
    return {
      url: `${origin.url}?${PRISMIC_IMAGE_DEFAULTS}`,
      dimensions: { width: origin.width, height: origin.height },
      edit: { x: 0, y: 0, zoom: 1, background: 'transparent' },
    }
  }
  const cut =
    crop ??
    (constraint.width && constraint.height
      ? centredCrop(origin, constraint.width / constraint.height)
      : full)
  const size = viewSize(cut, constraint)
  const cropped =
    cut.x !== 0 || cut.y !== 0 || cut.width !== origin.width || cut.height !== origin.height
  const resized = size.width !== origin.width || size.height !== origin.height
  const query = new URLSearchParams()
  if (cropped) query.set('rect', [cut.x, cut.y, cut.width, cut.height].join(','))
  if (cropped || resized) {
    query.set('w', String(size.width))
    query.set('h', String(size.height))
  }
  const extra = query.size > 0 ? `&${query.toString().replaceAll('%2C', ',')}` : ''
  // getCroppedImage: the crop spans the original's width / zoom when the view is at least as
  // wide (in shape) as the original, else its height / zoom.
  const zoom =
    size.width / size.height >= origin.width / origin.height
      ? origin.width / cut.width
      : origin.height / cut.height
  return {
    url: `${origin.url}?${PRISMIC_IMAGE_DEFAULTS}${extra}`,
    dimensions: size,
    edit: { x: cut.x, y: cut.y, zoom, background: 'transparent' },
  }
}

/**
 * Reads a crop as the content format writes it (`{ x, y, width, height }` in the original's
 * pixels); returns the problem in words when it is not one, or not inside the image.
 */
export function readCrop(value: unknown, origin: ImageOrigin): Crop | string {
  const keys = ['x', 'y', 'width', 'height'] as const
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return 'must be { "x", "y", "width", "height" } in the original image’s pixels'
  const v = value as Record<string, unknown>
  const extra = Object.keys(v).filter((k) => !(keys as readonly string[]).includes(k))
  if (extra.length) return `has keys a crop does not have: ${extra.join(', ')}`
  for (const k of keys) {
    if (typeof v[k] !== 'number' || !Number.isInteger(v[k]) || (v[k] as number) < 0)
      return `.${k} must be a whole number of pixels, 0 or more; got ${JSON.stringify(v[k])}`
  }
  const crop = v as Crop
  if (crop.width === 0 || crop.height === 0) return 'must be at least 1 pixel wide and high'
  if (!origin.raster) return 'cannot apply: only raster images (JPEG, PNG, WebP, AVIF) are cropped'
  if (crop.x + crop.width > origin.width || crop.y + crop.height > origin.height)
    return `runs past the image (${origin.width} × ${origin.height}): x + width ≤ ${origin.width}, y + height ≤ ${origin.height}`
  return crop
}

/**
 * The inverse of {@link imageView} for what a client holds: the file behind a view's URL (the URL
 * without its query) and the crop its `rect` names, as `buildCropUrl` in
 * `@prismicio/types-internal` writes it (`rect=x,y,width,height`, in the original's pixels).
 * `w`, `h` and `auto` are derived from the model and dropped. A `rect` that is not four whole
 * numbers is no crop this service wrote, and is ignored.
 */
export function readImageUrl(url: string): { file: string; crop?: Crop } {
  const at = url.indexOf('?')
  if (at < 0) return { file: url }
  const file = url.slice(0, at)
  const rect = new URLSearchParams(url.slice(at + 1)).get('rect')?.split(',').map(Number)
  if (rect?.length !== 4 || !rect.every((n) => Number.isInteger(n) && n >= 0)) return { file }
  const [x, y, width, height] = rect as [number, number, number, number]
  return { file, crop: { x, y, width, height } }
}
