// The production server: Next.js behind a thin layer that gives every HTML page a Content
// Security Policy allowing exactly its own inline scripts (by hash) rather than any inline script.
// `npm start` runs it after building; the benchmarks and the e2e tests run it too.
//
// PORT (default 3000) and LISTEN_HOST (default all interfaces) say where it listens.
import { createServer } from 'node:http'
import compression from 'compression'
import pLimit from 'p-limit'
import { inlineScriptHashes, withScriptHashes } from './lib/script-hashes.mjs'
import { createStaticHandler } from './lib/static-assets.mjs'
import { scriptsAfterFirstPaint } from './lib/after-paint.mjs'

// Set before Next.js and React load: they pick their production builds from it.
process.env.NODE_ENV = 'production'
const { default: next } = await import('next')

const port = Number(process.env.PORT || 3000)
const hostname = process.env.LISTEN_HOST || undefined
process.env.NEXT_TELEMETRY_DISABLED ??= '1'
// The layer below reads each page before compression, so Next.js must not compress (next.config.ts).
process.env.FACET_OWN_COMPRESSION = '1'

const app = next({ dev: false, dir: process.cwd(), hostname, port })
const handle = app.getRequestHandler()
await app.prepare()

const compress = compression()
// The build's assets, from the Brotli copies that the build step wrote (scripts/lib/static-assets.mjs).
const serveStatic = createStaticHandler(process.env.NEXT_DIST_DIR || '.next')
let warned = false

/**
 * Holds back an HTML response until it is complete, moves its chunk scripts after the first
 * paint (scripts/lib/after-paint.mjs), then swaps `'unsafe-inline'` in its policy for the
 * hashes of its inline scripts. Other responses pass straight through. Pages here are
 * static or small, so holding one back costs no more than a copy.
 */
function hashInlineScripts(req, res) {
  const chunks = []
  let holding
  const isHtml = () => {
    if (holding === undefined) {
      const type = String(res.getHeader('content-type') ?? '')
      holding = type.startsWith('text/html') && res.getHeader('content-security-policy') != null
    }
    return holding
  }
  const { write, end, writeHead, flushHeaders } = res
  res.flushHeaders = function () {
    if (!isHtml()) return flushHeaders.call(this)
  }
  res.writeHead = function (statusCode, ...rest) {
    if (!isHtml()) return writeHead.call(this, statusCode, ...rest)
    // Kept for the end: the policy is only known once the whole page is.
    this.statusCode = statusCode
    const headers = rest.find((value) => value && typeof value === 'object')
    if (Array.isArray(headers)) {
      for (let i = 0; i < headers.length; i += 2) this.setHeader(headers[i], headers[i + 1])
    } else if (headers) {
      for (const [key, value] of Object.entries(headers)) this.setHeader(key, value)
    }
    return this
  }
  res.write = function (chunk, encoding, callback) {
    if (!isHtml()) return write.call(this, chunk, encoding, callback)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding))
    if (typeof encoding === 'function') encoding()
    else if (typeof callback === 'function') callback()
    return true
  }
  res.end = function (chunk, encoding, callback) {
    if (!isHtml()) return end.call(this, chunk, encoding, callback)
    if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined]
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined]
    if (chunk != null) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding))
    const page = scriptsAfterFirstPaint(Buffer.concat(chunks).toString('utf8'))
    const body = Buffer.from(page)
    const { hashes, refused } = inlineScriptHashes(page)
    if (refused > 0 && !warned) {
      warned = true
      console.warn(
        `${req.url}: ${refused} inline script(s) not written by Next.js were left out of the ` +
          'Content Security Policy, so browsers will not run them.',
      )
    }
    const policy = String(res.getHeader('content-security-policy'))
    this.setHeader('content-security-policy', withScriptHashes(policy, hashes))
    if (req.method !== 'HEAD' && body.length > 0 && !this.hasHeader('transfer-encoding')) {
      this.setHeader('content-length', body.length)
    }
    // Hand the response back to the layers below (compression), which now write the head.
    Object.assign(this, { write, end, writeHead, flushHeaders })
    return this.end(body, callback)
  }
}

/**
 * At most this many requests are answered at once; the rest wait their turn, first come first
 * served. A page rendered on demand costs tens of milliseconds of CPU, spent in many small steps.
 * With no limit, a hundred such renders share the CPU turn by turn: each takes as long as all of
 * them together, and the event loop's turns grow so long that Node accepts new connections only a
 * few per second. Under a burst, some visitors then waited past a client's 10 s timeout
 * (`npm run bench:load`: 33 to 143 timeouts a minute; with 16 at once, 0 to 44; with 8, none).
 * Build assets skip the queue (they cost nothing), and so do requests with a body, which a slow
 * client could otherwise use to hold turns.
 */
const MAX_CONCURRENT = Number(process.env.FACET_MAX_CONCURRENT_REQUESTS || 8)
const inTurn = pLimit(MAX_CONCURRENT)

function answer(req, res) {
  return new Promise((resolve) => {
    // A visitor who gave up while waiting is not answered.
    if (res.destroyed || req.socket.destroyed) return resolve()
    // Done once the page is handed to the connection, or the connection is gone.
    res.once('finish', resolve)
    res.once('close', resolve)
    compress(req, res, () => {
      hashInlineScripts(req, res)
      handle(req, res).catch((error) => {
        console.error(error)
        if (!res.headersSent) res.statusCode = 500
        res.end()
      })
    })
  })
}

const server = createServer((req, res) => {
  const rendered = req.method === 'GET' || req.method === 'HEAD'
  if (req.url?.startsWith('/_next/static/') && serveStatic(req, res)) return
  // A request with a body (the mail API, the webhook) could be made to trickle in and hold a turn.
  if (!rendered || req.url?.startsWith('/_next/static/')) void answer(req, res)
  else void inTurn(() => answer(req, res))
})
server.listen(port, hostname, () => {
  console.log(`Facet is serving on http://${hostname ?? 'localhost'}:${port}`)
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close()
    process.exit(0)
  })
}
