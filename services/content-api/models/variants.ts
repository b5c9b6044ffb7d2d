import { createHash } from 'node:crypto'
import path from 'node:path'
import { createVariantCache, type VariantCache, type VariantCacheOptions } from '../images/cache'
import {
  ModelRenderRefused,
  MODEL_RETRY_AFTER_SECONDS,
  sharedModelLane,
  type ModelLane,
} from './lane'
import type { ModelStats } from './inspect'
import { checkBytes, ModelRefused } from './limits'
import { ModelParamError, paramsKey, variantType, type ModelParams } from './params'
import { renderModel, type Rendered } from './render'
import { isGlb } from './sniff'

/**
 * Model variants by URL: the part the media route and `/3d-models` share. A variant is made once
 * per source and params, in a child process (./render.ts), through the bounded lane
 * (./lane.ts), and kept on disk (../images/cache.ts) under a key of the source's content hash
 * and the normalized params; its ETag is that key.
 */

/** Bump when the pipeline (./optimize.ts) changes what it makes: every variant is made again. */
export const PIPELINE_VERSION = 2

/**
 * The default cache: `MODEL_CACHE_DIR` when set, else `.data/model-cache` under the working
 * directory; 1 GB. One setting for the server and the build's warming, so the variants the build
 * makes are the ones the server finds.
 */
export const DEFAULT_MODEL_CACHE: VariantCacheOptions = {
  dir: path.resolve(process.env.MODEL_CACHE_DIR || '.data/model-cache'),
  maxBytes: 1024 * 1024 * 1024,
}

/** How many refusals are remembered (a few bytes each). */
const MAX_REFUSED = 1000

/** A model to make variants of. */
export type ModelSource = {
  /** Names the source's bytes: their content hash, or an URL that names one upload. */
  id: string
  /** The bytes, read only when a variant must be made. */
  bytes: () => Promise<Uint8Array>
  /** What the logs call it (a file, an URL); `id` when absent. */
  name?: string
}

export type ModelVariantsOptions = {
  cache?: VariantCacheOptions
  lane?: ModelLane
  /** Makes one variant (default: in a child process). */
  render?: (bytes: Uint8Array, params: ModelParams) => Promise<Rendered>
}

export type ModelVariants = {
  /**
   * Answers a request for `source`'s variant: 200 with the GLB, 304, or an error named; 200 with
   * the original bytes, uncached, when its render failed (see `originalResponse`).
   */
  serve: (
    request: Request,
    params: ModelParams,
    source: ModelSource,
    caching: Record<string, string>,
  ) => Promise<Response>
  /** The variant's bytes, made in the lane's turn when not cached (warming, checks). */
  make: (params: ModelParams, source: ModelSource) => Promise<Buffer>
  /** How many variants were made, and the cache's size. */
  stats: () => { made: number; bytes: number; entries: number }
  /** The cache (the proxy keeps its fetched sources in it too). */
  cache: () => VariantCache
}

/** The variant's cache key: the source, the params, the pipeline. */
export function variantKey(params: ModelParams, source: ModelSource): string {
  const hash = createHash('sha256')
    .update(`${PIPELINE_VERSION}\0${source.id}\0${paramsKey(params)}`)
    .digest('base64url')
    .slice(0, 32)
  return `${paramsKey(params)}-${hash}`
}

/** Creates the service; the disk cache is opened on first use. */
export function createModelVariants({
  cache: cacheOptions = DEFAULT_MODEL_CACHE,
  lane = sharedModelLane(),
  render = renderModel,
}: ModelVariantsOptions = {}): ModelVariants {
  let cache: VariantCache | undefined
  const variants = () => (cache ??= createVariantCache(cacheOptions))
  // A model refused once (over a limit, not glTF) is refused again without a render, until the
  // process ends: its key names its bytes, which will not change.
  const refused = new Map<string, ModelRefused>()

  const produce = async (key: string, params: ModelParams, source: ModelSource) => {
    const known = refused.get(key)
    if (known) throw known
    try {
      const bytes = await source.bytes()
      checkBytes(bytes.byteLength)
      return servedBytes(bytes, await render(bytes, params), params)
    } catch (error) {
      if (error instanceof ModelRefused && error.status !== 502) {
        if (refused.size >= MAX_REFUSED) refused.clear()
        refused.set(key, error)
      }
      throw error
    }
  }

  const serve: ModelVariants['serve'] = async (request, params, source, caching) => {
    const key = variantKey(params, source)
    const etag = `"${key}"`
    const { extension, contentType } = variantType(params)
    const headers = { ...caching, ETag: etag, 'Content-Type': contentType }
    if (matches(request, etag)) return new Response(null, { status: 304, headers })
    let body: Buffer
    try {
      body = await variants().get(`${key}.${extension}`, () =>
        lane.run(() => produce(key, params, source)),
      )
    } catch (error) {
      // The original is a glTF file: no stand-in for a USDZ.
      if (isRefusal(error) || params.format === 'usdz') return modelErrorResponse(error)
      return originalResponse(error, params, source)
    }
    return new Response(new Uint8Array(body), {
      status: 200,
      // X-File-Size: the viewer's progress (see fileSize in ../images/media.ts).
      headers: {
        ...headers,
        'Content-Length': String(body.length),
        'X-File-Size': String(body.length),
      },
    })
  }

  return {
    serve,
    make: (params, source) => {
      const key = variantKey(params, source)
      return variants().get(`${key}.${variantType(params).extension}`, () =>
        lane.queue(() => produce(key, params, source)),
      )
    },
    stats: () => cache?.stats() ?? { made: 0, bytes: 0, entries: 0 },
    cache: variants,
  }
}

/**
 * What is kept and served for a rendered variant: the uploaded bytes when the variant is no
 * smaller and the upload already fits the params (no texture over the texture ceiling, no more
 * triangles than the budget), since such a variant only costs the visitor more to download;
 * otherwise the variant. A `.gltf` upload always gets its variant: the route serves a GLB. So
 * does `ar`, whose point is the form (no compression a phone's AR viewer may not decode).
 */
export function servedBytes(original: Uint8Array, rendered: Rendered, params: ModelParams): Buffer {
  const { glb, source } = rendered
  if (
    params.tier !== 'ar' &&
    glb.byteLength >= original.byteLength &&
    isGlb(original) &&
    fits(source, params)
  )
    return Buffer.from(original.buffer, original.byteOffset, original.byteLength)
  return Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength)
}

/** Whether a model is already within the params' ceilings. */
function fits(stats: ModelStats, params: ModelParams): boolean {
  return (
    stats.triangles <= params.maxTriangles &&
    stats.textures.every((t) => Math.max(t.width, t.height) <= params.maxTexture)
  )
}

/** An error the client is told about as it is: a bad parameter, a limit, a full lane. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof ModelParamError ||
    error instanceof ModelRefused ||
    error instanceof ModelRenderRefused
  )
}

/**
 * The answer when the variant could not be made though the model is within the limits (its
 * render crashed, ran out of memory or time): the uploaded bytes, which the viewer draws as it
 * would without `tier`, rather than no model at all. `no-store`, so neither a browser nor a CDN
 * keeps the stand-in, and nothing is cached here either: the next request tries the render again.
 * A 500 only when the original cannot be read either.
 */
async function originalResponse(
  error: unknown,
  params: ModelParams,
  source: ModelSource,
): Promise<Response> {
  const reason = error instanceof Error ? error.message : String(error)
  console.error(
    `model variant: ${source.name ?? source.id} (${paramsKey(params)}) could not be made, serving the original: ${reason}`,
  )
  let bytes: Uint8Array
  try {
    bytes = await source.bytes()
  } catch {
    return modelErrorResponse(error)
  }
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      'Cache-Control': 'no-store',
      'Content-Type': isGlb(bytes) ? 'model/gltf-binary' : 'model/gltf+json',
      'Content-Length': String(bytes.byteLength),
      'X-File-Size': String(bytes.byteLength),
      'X-Model-Variant': 'original (the variant could not be made)',
    },
  })
}

/**
 * The answer to a model request that failed: 400 for a bad parameter, 413/422 (or 502 from the
 * proxy) naming the limit or the reason, 503 with `Retry-After` when the lane is full (RFC 9110,
 * 15.6.4), 500 otherwise. Plain-text bodies, Facet's; never cached.
 */
export function modelErrorResponse(error: unknown): Response {
  const text = (status: number, message: string, extra: Record<string, string> = {}) =>
    new Response(`${message}\n`, {
      status,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        ...extra,
      },
    })
  if (error instanceof ModelParamError) return text(400, error.message)
  if (error instanceof ModelRefused) return text(error.status, error.message)
  if (error instanceof ModelRenderRefused)
    return text(503, `${error.message}; try again in ${MODEL_RETRY_AFTER_SECONDS} s`, {
      'Retry-After': String(MODEL_RETRY_AFTER_SECONDS),
    })
  console.error('model variant:', error)
  return text(500, 'the model variant could not be made')
}

/** `If-None-Match`: a list of ETags, or `*` (RFC 9110, 13.1.2). */
export function matches(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (!header) return false
  return (
    header.trim() === '*' ||
    header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
  )
}
