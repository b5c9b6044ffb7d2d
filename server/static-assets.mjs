// The build's static assets (`/_next/static/…`) and its prerendered immutable route answers (the
// 3D decoders) served from the Brotli copies the build wrote beside them
// (scripts/lib/static-assets.mjs, run by `npm run build`).
//
// `createStaticHandler()` serves those copies to clients that accept Brotli, with the headers
// Next.js gives the same file (the security headers from the routes manifest, immutable
// caching). Anything else falls through to Next.js (and the layer's compression, for gzip).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The content types of the assets the build compresses, by extension. */
export const COMPRESSIBLE_TYPES = {
  '.js': 'application/javascript; charset=UTF-8',
  '.mjs': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
  '.wasm': 'application/wasm',
}

/** Every file under `dir`, depth first; none when it does not exist. */
export function filesUnder(dir) {
  if (!existsSync(dir)) return []
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesUnder(full))
    else out.push(full)
  }
  return out
}

/** Compressible content types as a route handler declares them (`text/javascript; …`). */
function isCompressibleType(type) {
  const bare = String(type ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase()
  return (
    Object.values(COMPRESSIBLE_TYPES).some((known) => known.split(';')[0] === bare) ||
    bare === 'text/javascript' ||
    bare === 'application/xml'
  )
}

/**
 * Route answers Next.js prerendered (`.next/server/app/…/X.body`, its headers in `X.meta`) that
 * say they never change (`immutable`) and that compress: their URL path, body file, status and
 * headers. The 3D decoders are such answers (src/app/3d-decoders/).
 */
export function immutableRouteBodies(distDir) {
  const appDir = path.join(distDir, 'server', 'app')
  const out = []
  for (const full of filesUnder(appDir)) {
    if (!full.endsWith('.body')) continue
    const metaFile = `${full.slice(0, -'.body'.length)}.meta`
    if (!existsSync(metaFile)) continue
    let meta
    try {
      meta = JSON.parse(readFileSync(metaFile, 'utf8'))
    } catch {
      continue
    }
    const headers = meta.headers ?? {}
    if ((meta.status ?? 200) !== 200) continue
    if (!/\bimmutable\b/.test(String(headers['cache-control'] ?? ''))) continue
    if (!isCompressibleType(headers['content-type'])) continue
    const urlPath = `/${path.relative(appDir, full.slice(0, -'.body'.length)).split(path.sep).join('/')}`
    out.push({ urlPath, body: full, headers })
  }
  return out
}

/** Whether an Accept-Encoding header accepts Brotli (`br`, not `br;q=0`). */
export function acceptsBrotli(header) {
  for (const part of String(header ?? '').split(',')) {
    const [coding, ...params] = part.trim().split(';')
    if (coding.trim().toLowerCase() !== 'br') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

/**
 * The header rules of next.config.ts, read from the build's routes manifest; null when they
 * cannot be applied here (no manifest, or a rule with conditions on the request), so that
 * Next.js answers and no response goes out without its headers.
 */
function headerRules(distDir) {
  const manifest = path.join(distDir, 'routes-manifest.json')
  if (!existsSync(manifest)) return null
  const rules = JSON.parse(readFileSync(manifest, 'utf8')).headers ?? []
  if (rules.some((rule) => rule.has || rule.missing)) return null
  return rules.map((rule) => ({ regex: new RegExp(rule.regex), headers: rule.headers }))
}

/**
 * A handler for `/_next/static/…` and the prerendered immutable answers that answers from the
 * Brotli copies, or returns false so the request goes to Next.js (no copy, a client without
 * Brotli, a method other than GET or HEAD).
 */
export function createStaticHandler(distDir = process.env.NEXT_DIST_DIR || '.next') {
  const staticDir = path.resolve(distDir, 'static')
  const rules = headerRules(distDir)
  const copies = new Map()
  for (const full of rules ? filesUnder(staticDir) : []) {
    if (!full.endsWith('.br')) continue
    const original = full.slice(0, -3)
    const type = COMPRESSIBLE_TYPES[path.extname(original)]
    if (!type || !existsSync(original)) continue
    const urlPath = `/_next/static/${path.relative(staticDir, original).split(path.sep).join('/')}`
    const { size, mtimeMs } = statSync(full)
    copies.set(urlPath, {
      file: full,
      type,
      size,
      etag: `W/"br-${size}-${Math.floor(mtimeMs)}"`,
      // Fixed per path: worked out once here, not per request.
      headers: rules.filter((rule) => rule.regex.test(urlPath)).flatMap((rule) => rule.headers),
    })
  }
  for (const route of rules ? immutableRouteBodies(distDir) : []) {
    const file = `${route.body}.br`
    if (!existsSync(file)) continue
    const { size, mtimeMs } = statSync(file)
    const own = Object.entries(route.headers)
      .filter(([key]) => !key.startsWith('x-next'))
      .map(([key, value]) => ({ key, value: String(value) }))
    copies.set(route.urlPath, {
      file,
      type: String(route.headers['content-type']),
      size,
      etag: `W/"br-${size}-${Math.floor(mtimeMs)}"`,
      headers: [
        ...rules.filter((rule) => rule.regex.test(route.urlPath)).flatMap((rule) => rule.headers),
        ...own,
      ],
    })
  }

  return function serveStatic(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false
    let pathname
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname)
    } catch {
      return false
    }
    const copy = copies.get(pathname)
    if (!copy || !acceptsBrotli(req.headers['accept-encoding'])) return false
    for (const { key, value } of copy.headers) res.setHeader(key, value)
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
    res.setHeader('Content-Type', copy.type)
    res.setHeader('Content-Encoding', 'br')
    res.setHeader('Vary', 'Accept-Encoding')
    res.setHeader('ETag', copy.etag)
    if (req.headers['if-none-match'] === copy.etag) {
      res.statusCode = 304
      res.end()
      return true
    }
    res.setHeader('Content-Length', copy.size)
    res.statusCode = 200
    if (req.method === 'HEAD') res.end()
    else res.end((copy.body ??= readFileSync(copy.file)))
    return true
  }
}
