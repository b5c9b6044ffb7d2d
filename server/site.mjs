// The serving layer in front of Next.js: probes, build assets, kept pages, then Next.js, with
// a queue for the renders Next.js makes on demand.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import compression from 'compression'
import pLimit from 'p-limit'
import { compressible, createAssetCache } from './asset-cache.mjs'
import { CONTENT_TAG, tagForCdn } from './cdn.mjs'
import { HELD, holdHtml } from './hold-html.mjs'
import {
  createPageCache,
  isSameForEveryone,
  isSharedPage,
  pageKey,
  preparePage,
  sendPage,
} from './page-cache.mjs'

/**
 * At most this many on-demand renders run at once; the rest wait their turn, first come first
 * served. A page rendered on demand costs tens of milliseconds of CPU, spent in many small steps.
 * With no limit, a hundred such renders share the CPU turn by turn: each takes as long as all of
 * them together, and the event loop's turns grow so long that Node accepts new connections only a
 * few per second. Under a burst, some visitors then waited past a client's 10 s timeout
 * (`npm run bench:load`: 33 to 143 timeouts a minute; with 16 at once, 0 to 44; with 8, none).
 * Prerendered pages, kept pages and build assets skip the queue (Next.js reads them from its
 * cache, or the layer from memory), and so do requests with a body, which a slow client could
 * otherwise use to hold turns.
 */
export const DEFAULT_MAX_CONCURRENT = 8

/** Brotli quality for a page rendered per request: fast, where a kept page gets 11 once. */
const PER_REQUEST_BROTLI_QUALITY = 5

/** The webhook whose success means every kept page may be out of date. */
const REVALIDATE_PATH = '/api/revalidate'

/** The paths Next.js prerendered at build time (its prerender manifest), without `.html`. */
export function prerenderedPaths(distDir) {
  const manifest = path.join(distDir, 'prerender-manifest.json')
  if (!existsSync(manifest)) return new Set()
  return new Set(Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).routes ?? {}))
}

/** The slice simulator's page (src/app/slice-simulator), framed by Slice Machine. */
const SLICE_SIMULATOR_PATH = '/slice-simulator'

function pathnameOf(url) {
  const pathname = String(url ?? '/').split('?')[0]
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
}

/**
 * The request listener. `handle` is Next's request handler; `serveStatic` answers build assets
 * or returns false; `prerendered` lists the prerendered paths; `health` answers the probes;
 * `cdn` (server/cdn.mjs) purges the CDN after a successful webhook.
 */
export function createSiteListener({
  handle,
  serveStatic = () => false,
  prerendered = new Set(),
  health,
  maxConcurrent = DEFAULT_MAX_CONCURRENT,
  pageCache = createPageCache(),
  assetCache = createAssetCache(),
  cdn,
  log = console,
}) {
  const inTurn = pLimit(maxConcurrent)
  // Pages the layer holds are compressed by the layer (once per version for kept pages);
  // everything else that compresses, here (server/asset-cache.mjs).
  const compress = compression({
    filter: (req, res) => !res[HELD] && compressible(req, res),
  })
  let warned = false

  function send(req, res, page) {
    sendPage(req, res, page).catch((error) => {
      log.error(error)
      res.destroy()
    })
  }

  function onPage(req, res, key, answer) {
    let page
    if (key !== undefined && isSharedPage(answer.status, answer.headers))
      page = pageCache.keep(key, answer)
    else if (key !== undefined && isSameForEveryone(answer.status, answer.headers))
      page = pageCache.keep(key, answer, {
        perRequest: true,
        brotliQuality: PER_REQUEST_BROTLI_QUALITY,
      })
    else
      page = preparePage(answer, {
        brotliQuality: PER_REQUEST_BROTLI_QUALITY,
        // The simulator's clients (Prismic's page builder, which a production build answers,
        // and Slice Machine, which only a development build answers) load it in a frame kept
        // hidden (display: none) until it answers their postMessage handshake; a hidden frame
        // paints no frames, so scripts held for the first paint would never run.
        afterPaint: pathnameOf(req.url) !== SLICE_SIMULATOR_PATH,
      })
    if (page.refused > 0 && !warned) {
      warned = true
      log.warn(
        `${req.url}: ${page.refused} inline script(s) not written by Next.js were left out of ` +
          'the Content Security Policy, so browsers will not run them.',
      )
    }
    send(req, res, page)
  }

  function answer(req, res, key) {
    return new Promise((resolve) => {
      // A visitor who gave up while waiting is not answered.
      if (res.destroyed || req.socket.destroyed) return resolve()
      // Done once the page is handed to the connection, or the connection is gone.
      res.once('finish', resolve)
      res.once('close', resolve)
      compress(req, res, () => {
        // Sees the body before the middleware compresses it: an immutable asset is kept.
        assetCache.watch(req, res)
        holdHtml(res, (page) => onPage(req, res, key, page))
        handle(req, res).catch((error) => {
          log.error(error)
          if (!res.headersSent) res.statusCode = 500
          res.end()
        })
      })
    })
  }

  function isOnDemand(req, pathname, key) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false
    if (pathname.startsWith('/_next/static/')) return false
    const page = pathname.endsWith('.rsc') ? pathname.slice(0, -4) : pathname
    return !prerendered.has(page) && !(key !== undefined && pageCache.has(key))
  }

  return function listener(req, res) {
    if (health?.answer(req, res)) return
    const pathname = pathnameOf(req.url)
    // The build's assets and its prerendered immutable answers (the 3D decoders).
    if (serveStatic(req, res)) return
    tagForCdn(req, res, pathname)
    if (assetCache.serve(req, res)) return
    const key = pageKey(req)
    const kept = key === undefined ? undefined : pageCache.fresh(key)
    if (kept) return send(req, res, kept)
    if (req.method === 'POST' && pathname === REVALIDATE_PATH) {
      // Emptied as the webhook's 200 is written, not once it has been sent ('finish'): a client
      // that asks for a page the moment it reads the 200 must not be given a kept one (it was,
      // now and then, in tests/unit/server-layer.test.ts). Node writes every head through
      // writeHead, an implicit one too.
      const writeHead = res.writeHead
      res.writeHead = function (statusCode, ...rest) {
        if (statusCode === 200) {
          pageCache.clear()
          // Once this node is fresh: the CDN fetches again from here, or from a node that is.
          void cdn?.purge([CONTENT_TAG])
        }
        return writeHead.call(this, statusCode, ...rest)
      }
    }
    if (isOnDemand(req, pathname, key)) void inTurn(() => answer(req, res, key))
    else void answer(req, res, key)
  }
}
