import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import pLimit from 'p-limit'
// The variants' service only: the pipeline itself (glTF-Transform) runs in its child process.
import { ModelParamError, parseModelParams } from '../models/params'
import {
  createModelVariants,
  modelErrorResponse,
  type ModelVariants,
  type ModelVariantsOptions,
} from '../models/variants'
import { createVariantCache, type VariantCache, type VariantCacheOptions } from './cache'
import { parseImageParams, type ImageParams } from './params'
import { isIdentity, planImage, type ImagePlan, type SourceInfo } from './plan'
import { FORMAT_TYPES, readSource, renderVariant } from './render'
import { mediaHash, VERSION_PARAM } from './version'
import { makeEnvironmentVariant, parseEnvironmentParams } from '../environments/variants'

/**
 * The media route of the embedded content API, serving `media/` as Prismic's image CDN (imgix)
 * serves a repository's images: raster images are cut, resized and re-encoded as their URL's
 * parameters say (see ./params.ts), each variant made once and kept on disk; a glTF model
 * asked for with Facet's model parameters (`tier`, ../models/params.ts) is answered with its
 * optimized GLB; an environment (a Radiance HDR, or an image asked for with `tier`) at its tier's
 * size (../environments/); every other file (SVG, video, PDF), a model without `tier` and an
 * image asked for as it is go out byte for byte.
 */

/** Where variants are kept, and how many bytes of them at most. */
export type MediaCacheOptions = VariantCacheOptions

/** The default cache: `.data/media-cache` under the working directory, 256 MB. */
export const DEFAULT_MEDIA_CACHE: MediaCacheOptions = {
  dir: path.resolve('.data/media-cache'),
  maxBytes: 256 * 1024 * 1024,
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  // Radiance's registered type: an environment an editor uploads (rules/look.ts).
  '.hdr': 'image/vnd.radiance',
  '.ktx2': 'image/ktx2',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
}

/** Files imgix renders; anything else (SVG among them) passes through unchanged. */
const RASTER = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif'])

/** Files that take Facet's model parameters. */
const MODELS = new Set(['.glb', '.gltf'])

/**
 * Files that may be an environment (rules/look.ts): an HDR always takes Facet's environment
 * parameters (`tier`, `sky`); a JPEG, PNG or AVIF asked for with `tier` does too.
 */
const ENVIRONMENTS = new Set(['.hdr', '.jpg', '.jpeg', '.png', '.avif'])

/** The content type of a media file, by its extension. */
export function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Facet's choice. A URL that names the file's current bytes (`v=<hash>`, ./version.ts) never
 * changes meaning: long-lived, shared and `immutable`, as on Prismic, where a media URL names one
 * upload. Any other URL (no `v`, or the hash of bytes since replaced) may show other bytes
 * tomorrow: shared caches may keep it but must ask again each time (`no-cache`), which the ETag
 * makes a 304. `Vary: Accept` because `auto=format` answers by it, so a shared cache must not
 * give one browser's AVIF to another.
 */
const VERSIONED = { 'Cache-Control': 'public, max-age=31536000, immutable', Vary: 'Accept' }
const UNVERSIONED = { 'Cache-Control': 'public, no-cache', Vary: 'Accept' }

/**
 * The widths the official helpers' `asImageWidthSrcSet` asks for by default (640, 828, 1200,
 * 2048, 3840): renders of these come first unless the site names its own (`priorityWidths`).
 */
export const DEFAULT_PRIORITY_WIDTHS = [640, 828, 1200, 2048, 3840]

/**
 * Renders run in two lanes, each bounded, so that one client's renders never hold a page's.
 *
 * - **Pages' lane**: what a page's own `<img>` asks for, that is an image field's URL as it is, or
 *   with one of the site's `srcset` widths, with no quality, format or pixel ratio of its own.
 *   These are few per image (widths × formats), each made once and then served from the disk
 *   cache, so no client can make unbounded work of them. Two renders at once, 64 waiting.
 * - **Other lane**: everything else (any size, quality or format a client makes up). One render at
 *   a time, two waiting, and each starts only while the pages' lane is idle; past that, a quick
 *   503 with `Retry-After` instead of a wait (our choice; imgix bounds its renders too).
 *
 * Renders are CPU-bound and libvips is threaded: the two lanes share the cores, and a page's
 * image renders beside the slowest client render instead of behind it (measured in
 * tests/cdn/: every image of a project page answered while 20 unique oversized renders were
 * in flight).
 */
export const RENDER_LANES = {
  page: { concurrency: 2, waiting: 64 },
  other: { concurrency: 1, waiting: 2 },
} as const

/** Seconds a refused render is told to wait (`Retry-After`): about one render's time. */
export const RETRY_AFTER_SECONDS = 2

/** Thrown when a lane is full: answered 503 with `Retry-After`. */
export class RenderRefused extends Error {
  constructor(readonly lane: keyof typeof RENDER_LANES) {
    super(`too many image renders waiting (${lane} lane)`)
    this.name = 'RenderRefused'
  }
}

/** A bounded lane: `run(job)` starts it, queues it, or throws `RenderRefused` when full. */
function lane(name: keyof typeof RENDER_LANES) {
  const { concurrency, waiting } = RENDER_LANES[name]
  const limit = pLimit(concurrency)
  const idle: (() => void)[] = []
  const run = <T>(job: () => Promise<T>): Promise<T> => {
    if (limit.activeCount + limit.pendingCount >= concurrency + waiting)
      return Promise.reject(new RenderRefused(name))
    return limit(job).finally(() => {
      if (limit.activeCount + limit.pendingCount === 0) for (const wake of idle.splice(0)) wake()
    })
  }
  return Object.assign(run, {
    /** Resolves once nothing runs or waits in this lane. */
    idle: (): Promise<void> =>
      limit.activeCount + limit.pendingCount === 0
        ? Promise.resolve()
        : new Promise((resolve) => idle.push(resolve)),
  })
}

/** Sources' sizes and formats, remembered by file version (a header read each is cheap, not free). */
const MAX_SOURCES = 1000

export type MediaHandler = {
  /** Answers a GET for `file` (an absolute path under the media folder; 404 when missing). */
  serve: (request: Request, file: string) => Promise<Response>
  /** How many variants were made (for tests and the bench), and the cache's size. */
  stats: () => { made: number; bytes: number; entries: number }
  /** The model variants (their own cache and lane): stats, and warming. */
  models: ModelVariants
}

/** Options of the media handler beyond its cache. */
export type MediaHandlerOptions = {
  /** The widths the site's `srcset`s ask for: their renders take the pages' lane. */
  priorityWidths?: readonly number[]
  /** The model variants' cache, lane and renderer (../models/variants.ts). */
  models?: ModelVariantsOptions
}

/** Creates the media handler; the disk cache is opened on the first variant. */
export function createMediaHandler(
  cacheOptions: MediaCacheOptions = DEFAULT_MEDIA_CACHE,
  { priorityWidths = DEFAULT_PRIORITY_WIDTHS, models: modelOptions }: MediaHandlerOptions = {},
) {
  const models = createModelVariants(modelOptions)
  let cache: VariantCache | undefined
  const variants = () => (cache ??= createVariantCache(cacheOptions))
  const page = lane('page')
  const other = lane('other')
  // A render of the other lane starts only while no page's render runs or waits: one already
  // running goes on (a render cannot be paused), the next waits its turn behind pages.
  const lanes = {
    page,
    other: <T>(job: () => Promise<T>) => other(() => page.idle().then(job)),
  }
  const widths = new Set(priorityWidths)
  const sources = new Map<string, Promise<SourceInfo>>()

  const sourceOf = (file: string, version: string) => {
    const key = `${file}\0${version}`
    let info = sources.get(key)
    if (!info) {
      if (sources.size >= MAX_SOURCES) sources.clear()
      info = readSource(file)
      sources.set(key, info)
      info.catch(() => sources.delete(key))
    }
    return info
  }

  const serve = async (request: Request, file: string): Promise<Response> => {
    const info = await stat(file).catch(() => undefined)
    // A missing source is a 404 on imgix too; the body is Facet's (none, as before).
    if (!info?.isFile()) return new Response(null, { status: 404 })
    const version = `${info.size}-${Math.round(info.mtimeMs)}`
    const query = new URL(request.url).searchParams
    const named = query.get(VERSION_PARAM)
    const caching = named && named === mediaHash(file, version) ? VERSIONED : UNVERSIONED
    query.delete(VERSION_PARAM)
    const original = () => asIs(request, file, version, caching)
    if (MODELS.has(path.extname(file).toLowerCase())) {
      let params
      try {
        params = parseModelParams(query)
      } catch (error) {
        if (error instanceof ModelParamError) return modelErrorResponse(error)
        throw error
      }
      if (!params) return original()
      // Named by the bytes' hash: a node with its own copy of the folder shares the key.
      const id = mediaHash(file, version) ?? `${file}\0${version}`
      // Without the images' `Vary: Accept`: a model variant is named by its URL alone.
      const modelCaching = { 'Cache-Control': caching['Cache-Control']! }
      return models.serve(
        request,
        params,
        { id, name: file, bytes: () => readFile(file) },
        modelCaching,
      )
    }
    const extension = path.extname(file).toLowerCase()
    if (ENVIRONMENTS.has(extension) && (extension === '.hdr' || query.has('tier'))) {
      const params = parseEnvironmentParams(query)
      if (!params) return original()
      const key = createHash('sha256')
        .update(JSON.stringify([file, version, 'environment', params]))
        .digest('base64url')
        .slice(0, 32)
      const etag = `"${key}"`
      const headers = {
        'Cache-Control': caching['Cache-Control']!,
        ETag: etag,
        'Content-Type': contentType(file),
      }
      if (matches(request, etag)) return new Response(null, { status: 304, headers })
      let body: Buffer
      try {
        // An environment is a page's, as its images are: the pages' lane, bounded.
        body = await variants().get(`${key}${extension}`, () =>
          lanes.page(async () =>
            Buffer.from((await makeEnvironmentVariant(await readFile(file), params)).body),
          ),
        )
      } catch (error) {
        if (error instanceof RenderRefused) return refusal(error)
        console.error(`media: cannot size the environment ${file}:`, (error as Error).message)
        return original()
      }
      return new Response(new Uint8Array(body), {
        status: 200,
        headers: { ...headers, 'Content-Length': String(body.length) },
      })
    }
    if (!RASTER.has(extension) || query.size === 0) return original()

    const params = parseImageParams(query)
    let source: SourceInfo
    try {
      source = await sourceOf(file, version)
    } catch (error) {
      // Not an image sharp can read: imgix's answer is an error image; ours is the file.
      console.error(`media: cannot read ${file}:`, (error as Error).message)
      return original()
    }
    const plan = planImage(params, source, request.headers.get('accept') ?? '')
    if (isIdentity(plan, params, source)) return original()

    const key = variantKey(file, version, plan)
    const etag = `"${key}"`
    const headers = { ...caching, ETag: etag, 'Content-Type': FORMAT_TYPES[plan.format] }
    if (matches(request, etag)) return new Response(null, { status: 304, headers })
    const run = isPageRender(params, plan, source, widths) ? lanes.page : lanes.other
    let body: Buffer
    try {
      body = await variants().get(`${key}.${plan.format}`, () =>
        run(() => renderVariant(file, plan)),
      )
    } catch (error) {
      if (error instanceof RenderRefused) return refusal(error)
      console.error(`media: cannot render ${file}:`, (error as Error).message)
      return original()
    }
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: { ...headers, 'Content-Length': String(body.length) },
    })
  }

  return {
    serve,
    stats: () => cache?.stats() ?? { made: 0, bytes: 0, entries: 0 },
    models,
  } satisfies MediaHandler
}

/**
 * Whether a render is one a page asks for: the field's URL as it is (its own size, or its crop's)
 * or one of the `srcset` widths, with no quality, format or pixel ratio named.
 */
function isPageRender(
  params: ImageParams,
  plan: ImagePlan,
  source: SourceInfo,
  widths: ReadonlySet<number>,
): boolean {
  if (params.q !== undefined || params.fm !== undefined || params.dpr !== 1) return false
  const own = plan.extract ?? source
  if (plan.width === own.width && plan.height === own.height) return true
  return widths.has(plan.width)
}

/**
 * A render refused because its lane is full. 503 with `Retry-After` (RFC 9110, 15.6.4: the server
 * cannot handle the request now, and says when to try again); the body is Facet's.
 */
function refusal(error: RenderRefused): Response {
  return new Response(`${error.message}; try again in ${RETRY_AFTER_SECONDS} s\n`, {
    status: 503,
    headers: {
      'Retry-After': String(RETRY_AFTER_SECONDS),
      'Cache-Control': 'no-store',
      'Content-Type': 'text/plain; charset=utf-8',
    },
  })
}

/** One name per source version and plan: the ETag and the cache file's name. */
function variantKey(file: string, version: string, plan: ImagePlan): string {
  return createHash('sha256')
    .update(JSON.stringify([file, version, plan]))
    .digest('base64url')
    .slice(0, 32)
}

/** `If-None-Match`: a list of ETags, or `*` (RFC 9110, 13.1.2). */
function matches(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (!header) return false
  return (
    header.trim() === '*' ||
    header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
  )
}

async function asIs(
  request: Request,
  file: string,
  version: string,
  caching: Record<string, string>,
): Promise<Response> {
  const etag = `"${createHash('sha256').update(`${file}\0${version}`).digest('base64url').slice(0, 32)}"`
  const headers = { ...caching, ETag: etag, 'Content-Type': contentType(file) }
  if (matches(request, etag)) return new Response(null, { status: 304, headers })
  const body = await readFile(file)
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: { ...headers, 'Content-Length': String(body.length), ...fileSize(file, body.length) },
  })
}

/**
 * `X-File-Size` on a model: three's FileLoader reads it (before `Content-Length`, which a
 * compressing layer in between may drop) to report a download's progress, which the viewer shows.
 */
export function fileSize(file: string, bytes: number): Record<string, string> {
  return /\.(glb|gltf)$/i.test(file) ? { 'X-File-Size': String(bytes) } : {}
}
