// What the serving layer does to a page, done once per version of the page.
//
// Each HTML page that Next.js sends is rewritten (chunk scripts after the first paint,
// server/after-paint.mjs), its policy gets the hashes of its inline scripts
// (server/script-hashes.mjs), and it is compressed. For a prerendered page, all of that is the
// same on every request until Next.js regenerates the page, so it is kept here: a version is
// known by the hash of the HTML Next.js wrote, and its rewritten body, policy and compressed
// bodies are made once for it.
//
// A page kept here is served without asking Next.js at all, for `recheckMs` (default 1 s) after
// Next.js last served it. The next request after that goes through Next.js again, which says
// whether the page changed: if its HTML is the same, nothing is recomputed; if not, the new
// version replaces the old one. So a change Next.js makes (a revalidation on this node, or on
// another node sharing its cache) shows here at most `recheckMs` later, and a prerendered page
// costs Next.js one request per second per node instead of one per visitor. A successful
// `/api/revalidate` on this node empties the cache at once (server/site.mjs).
//
// Measured with autocannon on the prerendered home page (50 connections, bench/report.md):
// redoing this work per request made `npm start` about half as fast as `next start`.
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { scriptsAfterFirstPaint } from './after-paint.mjs'
import { inlineScriptHashes, withScriptHashes } from './script-hashes.mjs'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** How long a kept page is served before Next.js is asked again whether it changed. */
export const DEFAULT_RECHECK_MS = 1_000
/** Pages kept at most; the least recently used go first (random query strings cannot fill memory). */
export const DEFAULT_MAX_PAGES = 500

/** Request headers that make Next.js answer something other than the page's HTML. */
const OTHER_ANSWER_HEADERS = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-action',
  'next-url',
]
/** Cookies of a preview or draft session: their visitors see pages no one else does. */
const SESSION_COOKIES = /(?:^|;\s*)(?:__prerender_bypass|__next_preview_data|io\.prismic\.preview)=/

/**
 * The cache key of a request whose answer may be shared: GET or HEAD for a page's HTML, outside
 * a preview. Undefined otherwise.
 */
export function pageKey(req) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined
  for (const name of OTHER_ANSWER_HEADERS) if (req.headers[name] !== undefined) return undefined
  if (SESSION_COOKIES.test(String(req.headers.cookie ?? ''))) return undefined
  return req.url
}

/**
 * Whether Next.js says this answer is the same for everyone until it regenerates it: a 200
 * with a shared-cache lifetime (`s-maxage`, which Next.js gives prerendered and ISR pages) and
 * nothing private. Pages rendered per request carry `private, no-store`.
 */
export function isSharedPage(status, headers) {
  if (status !== 200) return false
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase()
  return (
    /\bs-maxage=\d+/.test(cacheControl) && !/\b(?:private|no-store|no-cache)\b/.test(cacheControl)
  )
}

/**
 * The header by which the site says that a page it renders per request is the same for every
 * visitor of that URL (the work and journal indexes: their query string is part of the key, and
 * preview sessions have no key). The proxy sets it (src/proxy.ts); the layer takes it off.
 */
export const SAME_FOR_EVERYONE_HEADER = 'x-facet-same-for-everyone'

/**
 * Whether a page rendered per request may be kept for `recheckMs`: a 200 the site marked as the
 * same for everyone, setting no cookie. Its headers still say `no-store` to browsers and CDNs;
 * keeping it one second saves a render per request for a popular index page or search, and a
 * successful webhook on this node drops it at once, like every kept page.
 */
export function isSameForEveryone(status, headers) {
  return (
    status === 200 &&
    String(headers[SAME_FOR_EVERYONE_HEADER] ?? '') === '1' &&
    headers['set-cookie'] === undefined
  )
}

/** The headers without the layer's own marker. */
export function withoutMarker(headers) {
  if (!(SAME_FOR_EVERYONE_HEADER in headers)) return headers
  const { [SAME_FOR_EVERYONE_HEADER]: _marker, ...rest } = headers
  return rest
}

/** Whether an Accept-Encoding header accepts `coding` (present, and not `q=0`). */
export function accepts(header, coding) {
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (name.trim().toLowerCase() !== coding) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

/** Below this size a compressed body saves less than its own headers cost. */
const MIN_COMPRESS_BYTES = 1024

/** The coding to send `page` in for this request: Brotli, else gzip, else none. */
function codingFor(req, page) {
  if (page.html.length < MIN_COMPRESS_BYTES) return undefined
  const header = req.headers['accept-encoding']
  if (accepts(header, 'br')) return 'br'
  if (accepts(header, 'gzip')) return 'gzip'
  return undefined
}

/**
 * A page as the layer sends it: rewritten HTML, the policy with its script hashes, and its
 * compressed bodies, made on first use. `refused` counts inline scripts left out of the policy.
 * `afterPaint: false` keeps the framework's scripts where Next.js put them (server/after-paint.mjs).
 */
export function preparePage(
  { status, headers, body },
  { version = hashOf(body), brotliQuality = constants.BROTLI_MAX_QUALITY, afterPaint = true } = {},
) {
  const text = body.toString('utf8')
  const html = afterPaint ? scriptsAfterFirstPaint(text) : text
  const { hashes, refused } = inlineScriptHashes(html)
  const policy = String(headers['content-security-policy'])
  return {
    status,
    headers: {
      ...withoutMarker(headers),
      'content-security-policy': withScriptHashes(policy, hashes),
    },
    html: Buffer.from(html),
    version,
    refused,
    encoded: {},
    // Quality 11 suits a body made once per version; a page rendered per request gets less.
    brotliQuality,
  }
}

function hashOf(body) {
  return createHash('sha1').update(body).digest('base64')
}

function encode(page, coding) {
  page.encoded[coding] ??=
    coding === 'br'
      ? brotli(page.html, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: page.brotliQuality,
            [constants.BROTLI_PARAM_SIZE_HINT]: page.html.length,
          },
        })
      : gz(page.html, { level: 9 })
  return page.encoded[coding]
}

/** Sends a prepared page: 304 to a matching If-None-Match, else the body in the best coding. */
export async function sendPage(req, res, page) {
  const coding = codingFor(req, page)
  let body = page.html
  try {
    if (coding) body = await encode(page, coding)
  } catch (error) {
    console.error(error)
    delete page.encoded[coding]
    body = page.html
  }
  if (res.destroyed) return
  // Next.js set its headers on this response too (writeHead adds to them): the marker goes.
  res.removeHeader(SAME_FOR_EVERYONE_HEADER)
  const headers = { ...page.headers, vary: withAcceptEncoding(page.headers.vary) }
  const etag = page.headers.etag
  if (etag && req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers)
    res.end()
    return
  }
  if (body !== page.html) headers['content-encoding'] = coding
  headers['content-length'] = body.length
  res.writeHead(page.status, headers)
  res.end(req.method === 'HEAD' ? undefined : body)
}

/** `vary` with Accept-Encoding in it (a compressed answer varies by it). */
export function withAcceptEncoding(vary) {
  const list = String(vary ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (!list.some((name) => name.toLowerCase() === 'accept-encoding')) list.push('Accept-Encoding')
  return list.join(', ')
}

/**
 * The pages kept for sharing, by `pageKey`. `fresh(key)` is a page that may be served without
 * asking Next.js; `has(key)` says a page Next.js keeps was kept here (whatever its age): its next
 * answer from Next.js is cheap; `keep(key, answer, options)` takes what Next.js just sent and
 * returns the page to send, reusing the kept one when its HTML has not changed (`perRequest`: a
 * page Next.js renders per request, kept `recheckMs` only, and compressed at `brotliQuality`);
 * `clear()` forgets every page.
 */
export function createPageCache({
  recheckMs = DEFAULT_RECHECK_MS,
  maxPages = DEFAULT_MAX_PAGES,
  now = Date.now,
} = {}) {
  const pages = new Map()
  return {
    fresh(key) {
      const entry = pages.get(key)
      if (!entry || now() - entry.checkedAt >= recheckMs) return undefined
      // Most recently used last: Map keeps insertion order.
      pages.delete(key)
      pages.set(key, entry)
      return entry.page
    },
    has(key) {
      const entry = pages.get(key)
      return entry !== undefined && !entry.perRequest
    },
    keep(key, answer, { perRequest = false, brotliQuality } = {}) {
      const version = hashOf(answer.body)
      const entry = pages.get(key)
      const page =
        entry && entry.page.version === version && entry.page.status === answer.status
          ? entry.page
          : preparePage(answer, { version, ...(brotliQuality ? { brotliQuality } : {}) })
      pages.delete(key)
      pages.set(key, { page, checkedAt: now(), perRequest })
      if (pages.size > maxPages) pages.delete(pages.keys().next().value)
      return page
    },
    clear() {
      pages.clear()
    },
    get size() {
      return pages.size
    },
  }
}
