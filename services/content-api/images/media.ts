import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import pLimit from 'p-limit'
import { createVariantCache, type VariantCache, type VariantCacheOptions } from './cache'
import { parseImageParams } from './params'
import { isIdentity, planImage, type ImagePlan, type SourceInfo } from './plan'
import { FORMAT_TYPES, readSource, renderVariant } from './render'

/**
 * The media route of the embedded content API, serving `media/` as Prismic's image CDN (imgix)
 * serves a repository's images: raster images are cut, resized and re-encoded as their URL's
 * parameters say (see ./params.ts), each variant made once and kept on disk; every other file
 * (SVG, GLB, video, PDF) and an image asked for as it is go out byte for byte.
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
  '.hdr': 'application/octet-stream',
  '.ktx2': 'image/ktx2',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
}

/** Files imgix renders; anything else (SVG among them) passes through unchanged. */
const RASTER = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif'])

/** The content type of a media file, by its extension. */
export function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Facet's choice, as the site already served media: long-lived and shared, because on Prismic a
 * media URL names one upload (a new upload gets a new URL). `Vary: Accept` because `auto=format`
 * answers by it, so a shared cache must not give one browser's AVIF to another.
 */
const CACHING = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  Vary: 'Accept',
}

/** Renders at most this many variants at once: each is CPU-bound, and libvips is threaded. */
const RENDER_CONCURRENCY = 2
/** Sources' sizes and formats, remembered by file version (a header read each is cheap, not free). */
const MAX_SOURCES = 1000

export type MediaHandler = {
  /** Answers a GET for `file` (an absolute path under the media folder; 404 when missing). */
  serve: (request: Request, file: string) => Promise<Response>
  /** How many variants were made (for tests and the bench), and the cache's size. */
  stats: () => { made: number; bytes: number; entries: number }
}

/** Creates the media handler; the disk cache is opened on the first variant. */
export function createMediaHandler(cacheOptions: MediaCacheOptions = DEFAULT_MEDIA_CACHE) {
  let cache: VariantCache | undefined
  const variants = () => (cache ??= createVariantCache(cacheOptions))
  const limit = pLimit(RENDER_CONCURRENCY)
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
    const original = () => asIs(request, file, version)
    if (!RASTER.has(path.extname(file).toLowerCase()) || query.size === 0) return original()

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
    const headers = { ...CACHING, ETag: etag, 'Content-Type': FORMAT_TYPES[plan.format] }
    if (matches(request, etag)) return new Response(null, { status: 304, headers })
    let body: Buffer
    try {
      body = await variants().get(`${key}.${plan.format}`, () =>
        limit(() => renderVariant(file, plan)),
      )
    } catch (error) {
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
  } satisfies MediaHandler
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

async function asIs(request: Request, file: string, version: string): Promise<Response> {
  const etag = `"${createHash('sha256').update(`${file}\0${version}`).digest('base64url').slice(0, 32)}"`
  const headers = { ...CACHING, ETag: etag, 'Content-Type': contentType(file) }
  if (matches(request, etag)) return new Response(null, { status: 304, headers })
  const body = await readFile(file)
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: { ...headers, 'Content-Length': String(body.length) },
  })
}
