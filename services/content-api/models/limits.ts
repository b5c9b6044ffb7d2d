/**
 * What the model service accepts at most. A model over one of these is refused before any
 * work, with an answer that names the limit (docs/3d-models.md): 413 for bytes (RFC 9110,
 * 15.5.14, Content Too Large), 422 for what the file holds (triangles, texture pixels).
 * Facet's choice: a designer's export is commonly 10–60 MB with 4K maps and about a million
 * triangles; these are several times that, and keep one render within a few seconds and about
 * a gigabyte of memory.
 */

/** The largest model file, in bytes (100 MB). */
export const MODEL_MAX_BYTES = 100 * 1024 * 1024
/** The most triangles a model may hold, over all its meshes (5 M). */
export const MODEL_MAX_TRIANGLES = 5_000_000
/** The most pixels one texture may have (8192 × 8192). */
export const MODEL_MAX_TEXTURE_PIXELS = 8192 * 8192

/** The limits by name, as the error messages and the docs name them. */
export const MODEL_LIMITS = {
  MODEL_MAX_BYTES,
  MODEL_MAX_TRIANGLES,
  MODEL_MAX_TEXTURE_PIXELS,
} as const

/** A model the service refuses to transform: over a limit, or not a model it can read. */
export class ModelRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 413 | 422 | 502,
    message: string,
  ) {
    super(message)
    this.name = 'ModelRefused'
  }
}

const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`

/** Throws `ModelRefused` (413) when `bytes` is over MODEL_MAX_BYTES. */
export function checkBytes(bytes: number): void {
  if (bytes > MODEL_MAX_BYTES)
    throw new ModelRefused(
      413,
      `model too large: ${mb(bytes)} over the ${mb(MODEL_MAX_BYTES)} limit (MODEL_MAX_BYTES)`,
    )
}

/** Throws `ModelRefused` (422) when a model's triangles or a texture's pixels are over a limit. */
export function checkContents(stats: {
  triangles: number
  textures: readonly { width: number; height: number }[]
}): void {
  if (stats.triangles > MODEL_MAX_TRIANGLES)
    throw new ModelRefused(
      422,
      `model has too many triangles: ${stats.triangles.toLocaleString('en')} over the ${MODEL_MAX_TRIANGLES.toLocaleString('en')} limit (MODEL_MAX_TRIANGLES)`,
    )
  for (const { width, height } of stats.textures)
    if (width * height > MODEL_MAX_TEXTURE_PIXELS)
      throw new ModelRefused(
        422,
        `model texture too large: ${width} × ${height} px over the 8192 × 8192 limit (MODEL_MAX_TEXTURE_PIXELS)`,
      )
}
