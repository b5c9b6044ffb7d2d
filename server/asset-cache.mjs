// Compression for everything the site sends that is not a page: the 3D decoders, the models and
// their variants (GLB, glTF, USDZ), environments (HDR), the stand-in's JSON, XML and SVG.
//
// Two parts:
// - `compressible(res)`: the filter of the `compression` middleware (server/site.mjs). The
//   middleware's own filter reads `Content-Type` as a string, and Next.js sets it on a route
//   handler's answer as an array (`['application/wasm']`): nothing a route handler answered was
//   ever compressed. It also knows the types the MIME database leaves out: an HDR
//   (`image/vnd.radiance`, RLE-coded floats: a 256 px light compresses about 10×) and USDZ
//   (`model/vnd.usdz+zip`, a zip that stores its files uncompressed: a lamp's 125 KB became
//   9 KB). A browser decodes the body before anything else sees it, AR Quick Look's download in
//   Safari included (docs/performance.md).
// - `createAssetCache()`: an answer that says it never changes under its URL (`immutable`: the
//   decoders carry three's revision, a model or an environment its version) is compressed once at
//   Brotli's best quality (11) and gzip's (9), in the background, and then served from memory.
//   The first request gets the middleware's fast coding (Brotli 4, made while streaming); the
//   best is worth waiting for only once: on the showcase's AR variant 8.2 KB against 14.9 KB,
//   on the Basis transcoder 204 KB against 239 KB. Memory is bounded (least recently used out).
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import compression from 'compression'
import { TRANSFER_HEADERS } from './hold-html.mjs'
import { accepts, withAcceptEncoding } from './page-cache.mjs'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Types worth compressing that the MIME database does not mark compressible. */
const EXTRA_COMPRESSIBLE = new Set([
  'image/vnd.radiance',
  'model/vnd.usdz+zip',
  // A glTF's separate buffers (`.bin`) as the media route types them; they compress as a GLB's
  // binary chunk does (meshopt's output is made to be compressed further).
  'application/octet-stream',
])

/** `Content-Type` as one string, whichever way it was set (Next.js sets an array). */
function contentTypeOf(res) {
  const value = res.getHeader('content-type')
  return Array.isArray(value) ? String(value[0] ?? '') : String(value ?? '')
}

/**
 * Whether the layer compresses this answer: the middleware's own rule (a compressible type, no
 * `no-transform`) on a `Content-Type` made a string first, or one of `EXTRA_COMPRESSIBLE`.
 */
export function compressible(req, res) {
  const type = contentTypeOf(res)
  if (Array.isArray(res.getHeader('content-type')) && !res.headersSent) {
    res.setHeader('content-type', type)
  }
  if (EXTRA_COMPRESSIBLE.has(type.split(';')[0].trim().toLowerCase())) {
    return !/\bno-transform\b/i.test(String(res.getHeader('cache-control') ?? ''))
  }
  return compression.filter(req, res)
}

/** Kept bodies at most, in bytes (each body counted with its two codings). */
export const DEFAULT_MAX_BYTES = 96 * 1024 * 1024
/** A body larger than this is compressed per request and never kept. */
export const MAX_KEPT_BODY = 24 * 1024 * 1024
/** Below this a compressed body saves less than its own headers cost. */
const MIN_BYTES = 1024

function varyNames(headers) {
  return String(headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && name !== 'accept-encoding')
}

function variantOf(req, names) {
  return names.map((name) => `${name}=${req.headers[name] ?? ''}`).join('\n')
}

/** The coding a request accepts, best first: Brotli, else gzip, else none. */
function codingFor(req) {
  const header = req.headers['accept-encoding']
  if (accepts(header, 'br')) return 'br'
  if (accepts(header, 'gzip')) return 'gzip'
  return undefined
}

/**
 * The immutable assets kept compressed. `serve(req, res)` answers from memory and returns true,
 * or returns false (nothing kept for this URL and its varying headers, a client that takes no
 * compression, a range or a method other than GET and HEAD); `watch(req, res)`, called before
 * Next.js answers, copies an immutable compressible answer's body as it goes out and keeps it
 * compressed once it is complete.
 */
export function createAssetCache({ maxBytes = DEFAULT_MAX_BYTES, log = console } = {}) {
  /** url → [{ names, variant, asset }] */
  const byUrl = new Map()
  /** Every kept asset, least recently used first, with its size. */
  const lru = new Map()
  let bytes = 0

  function drop(asset) {
    if (!lru.has(asset)) return
    bytes -= lru.get(asset)
    lru.delete(asset)
    const list = (byUrl.get(asset.url) ?? []).filter((entry) => entry.asset !== asset)
    if (list.length) byUrl.set(asset.url, list)
    else byUrl.delete(asset.url)
  }

  function find(req) {
    for (const entry of byUrl.get(req.url) ?? []) {
      if (variantOf(req, entry.names) === entry.variant) return entry.asset
    }
    return undefined
  }

  async function keep(req, { status, headers, body }) {
    const names = varyNames(headers)
    const variant = variantOf(req, names)
    if (find(req)) return
    try {
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: 9 }),
      ])
      if (br.length >= body.length) return
      const asset = { url: req.url, status, headers, encoded: { br, gzip: gzipped } }
      const size = br.length + gzipped.length
      byUrl.set(req.url, [
        ...(byUrl.get(req.url) ?? []).filter((e) => e.variant !== variant),
        { names, variant, asset },
      ])
      lru.set(asset, size)
      bytes += size
      while (bytes > maxBytes && lru.size > 1) drop(lru.keys().next().value)
    } catch (error) {
      log.error(error)
    }
  }

  return {
    serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      if (req.headers.range) return false
      const coding = codingFor(req)
      if (!coding) return false
      const asset = find(req)
      if (!asset) return false
      // Most recently used last.
      const size = lru.get(asset)
      lru.delete(asset)
      lru.set(asset, size)
      const body = asset.encoded[coding]
      res.writeHead(asset.status, {
        ...asset.headers,
        vary: withAcceptEncoding(asset.headers.vary),
        'content-encoding': coding,
        'content-length': body.length,
      })
      res.end(req.method === 'HEAD' ? undefined : body)
      return true
    },

    watch(req, res) {
      if (req.method !== 'GET' || req.headers.range) return
      const { write, end, writeHead } = res
      let chunks = []
      let length = 0
      let decided = false
      // Decided as the head goes out, before the middleware's own hook adds its Content-Encoding
      // (Node sends an implicit head through writeHead too).
      res.writeHead = function (...args) {
        const cacheControl = String(res.getHeader('cache-control') ?? '')
        const status = typeof args[0] === 'number' ? args[0] : res.statusCode
        decided =
          status === 200 &&
          /\bimmutable\b/i.test(cacheControl) &&
          !/\b(?:private|no-store)\b/i.test(cacheControl) &&
          res.getHeader('set-cookie') === undefined &&
          res.getHeader('content-encoding') === undefined &&
          compressible(req, res)
        res.writeHead = writeHead
        return writeHead.apply(this, args)
      }
      const copy = (chunk, encoding) => {
        if (chunks === null || chunk == null || typeof chunk === 'function') return
        const buffer = Buffer.isBuffer(chunk)
          ? chunk
          : typeof chunk === 'string'
            ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8')
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        length += buffer.length
        if (length > MAX_KEPT_BODY) chunks = null
        else chunks.push(buffer)
      }
      // Copied after the call: the head (and so the decision) goes out inside the first one.
      res.write = function (chunk, encoding, callback) {
        const result = write.call(this, chunk, encoding, callback)
        if (decided) copy(chunk, encoding)
        return result
      }
      res.end = function (chunk, encoding, callback) {
        const result = end.call(this, chunk, encoding, callback)
        if (decided) copy(chunk, encoding)
        if (decided && chunks !== null && length >= MIN_BYTES) {
          const headers = {}
          for (const [name, value] of Object.entries(res.getHeaders())) {
            if (!TRANSFER_HEADERS.includes(name)) headers[name] = value
          }
          // The middleware added Accept-Encoding to Vary; the kept asset adds it when served.
          const body = Buffer.concat(chunks)
          chunks = null
          void keep(req, { status: 200, headers, body })
        }
        return result
      }
    },

    /** Kept assets and their bytes (the health probe's figures, the tests). */
    get size() {
      return lru.size
    },
    get bytes() {
      return bytes
    },
    clear() {
      byUrl.clear()
      lru.clear()
      bytes = 0
    },
  }
}
