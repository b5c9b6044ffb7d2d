// The build's static assets (`/_next/static/…`), made cheaper to load and to serve.
//
// After `next build`, `finishBuild()`:
// 1. marks each script that pages load up front with V8's explicit compile hint
//    (`//# allFunctionsCalledOnLoad`). Chromium then compiles the whole file on the background
//    thread that streams it, instead of compiling each function on the main thread the first time
//    it runs; measured here, the main-thread JavaScript of loading the home page fell from about
//    250 ms to 70 ms (CPU profile, unthrottled). Scripts loaded later (the 3D chunk) are left
//    lazy: most of three.js never runs on a given page. Turbopack has no banner option, so the
//    comment is added here.
// 2. writes a Brotli copy (quality 11) beside every compressible asset: about 14 % smaller than
//    the quality the server could afford per request, and no compression work per request.
//
// `createStaticHandler()` serves those copies to clients that accept Brotli, with the headers
// Next.js gives the same file (the security headers from the routes manifest, immutable
// caching). Anything else falls through to Next.js.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants } from 'node:zlib'
import path from 'node:path'
import { initialScripts, prerenderedPages } from './bundles.mjs'

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

const TYPES = {
  '.js': 'application/javascript; charset=UTF-8',
  '.mjs': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
  '.wasm': 'application/wasm',
}
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 512

function filesUnder(dir) {
  if (!existsSync(dir)) return []
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesUnder(full))
    else out.push(full)
  }
  return out
}

/**
 * The scripts that pages load before any interaction: the framework's (every page) and those
 * named by a `<script src>` in any prerendered page. Paths are relative to `distDir`.
 */
export function initialScriptFiles(distDir) {
  const files = new Set()
  const manifest = path.join(distDir, 'build-manifest.json')
  if (existsSync(manifest)) {
    const { rootMainFiles = [], polyfillFiles = [] } = JSON.parse(readFileSync(manifest, 'utf8'))
    for (const file of [...rootMainFiles, ...polyfillFiles]) files.add(file)
  }
  for (const page of prerenderedPages(path.join(distDir, 'server', 'app'))) {
    for (const src of initialScripts(readFileSync(page.file, 'utf8'))) {
      const file = decodeURIComponent(src.split('?')[0].slice('/_next/'.length))
      if (file.startsWith('static/') && file.endsWith('.js')) files.add(file)
    }
  }
  return [...files].sort()
}

/** Adds the compile hint and the Brotli copies. Safe to run twice. Returns what it did. */
export function finishBuild(distDir = process.env.NEXT_DIST_DIR || '.next') {
  const staticDir = path.join(distDir, 'static')
  if (!existsSync(staticDir)) throw new Error(`${staticDir} does not exist: run next build first`)
  const hinted = []
  for (const file of initialScriptFiles(distDir)) {
    const full = path.join(distDir, file)
    if (!existsSync(full)) continue
    const text = readFileSync(full, 'utf8')
    if (text.startsWith(COMPILE_HINT)) continue
    writeFileSync(full, COMPILE_HINT + text)
    hinted.push(file)
  }
  let compressed = 0
  let bytes = 0
  let brotliBytes = 0
  for (const full of filesUnder(staticDir)) {
    if (!TYPES[path.extname(full)]) continue
    const body = readFileSync(full)
    if (body.length < MIN_BYTES) continue
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
    if (br.length >= body.length) continue
    writeFileSync(`${full}.br`, br)
    compressed += 1
    bytes += body.length
    brotliBytes += br.length
  }
  return { hinted, compressed, bytes, brotliBytes }
}

/** A line saying what finishBuild() did. */
export function describeFinishedBuild({ hinted, compressed, bytes, brotliBytes }) {
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`
  return (
    `Static assets: compile hint on ${hinted.length} initial script(s); ` +
    `${compressed} Brotli copies (${kb(bytes)} → ${kb(brotliBytes)}).`
  )
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
 * A handler for `/_next/static/…` that answers from the Brotli copies, or returns false so the
 * request goes to Next.js (no copy, a client without Brotli, a method other than GET or HEAD).
 */
export function createStaticHandler(distDir = process.env.NEXT_DIST_DIR || '.next') {
  const staticDir = path.resolve(distDir, 'static')
  const rules = headerRules(distDir)
  const copies = new Map()
  for (const full of rules ? filesUnder(staticDir) : []) {
    if (!full.endsWith('.br')) continue
    const original = full.slice(0, -3)
    const type = TYPES[path.extname(original)]
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
