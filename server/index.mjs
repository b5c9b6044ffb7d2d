// The production server: Next.js behind a thin layer (server/site.mjs) that gives every HTML
// page a Content Security Policy allowing exactly its own inline scripts (by hash), loads its
// framework scripts after the first paint, keeps each prerendered page's rewritten and
// compressed bodies, queues on-demand renders, answers liveness and readiness probes, and
// drains requests in flight on SIGTERM or SIGINT. `npm start` runs it after building; the
// benchmarks and the e2e tests run it too.
//
// PORT (default 3000) and LISTEN_HOST (default all interfaces) say where it listens;
// CDN_PURGE_URL, where a publish purges the CDN in front (server/cdn.mjs).
import { createServer } from 'node:http'
import { createStaticHandler } from './static-assets.mjs'
import { createCdnPurge } from './cdn.mjs'
import { createHealth } from './health.mjs'
import { DEFAULT_DRAIN_MS, drainOnSignals } from './shutdown.mjs'
import { DEFAULT_MAX_CONCURRENT, createSiteListener, prerenderedPaths } from './site.mjs'
import { markServing } from './serving-marks.mjs'
import { holdWarmUp, warmCheck, warmInfo } from './warm.mjs'

// Set before Next.js and React load: they pick their production builds from it.
process.env.NODE_ENV = 'production'
process.env.NEXT_TELEMETRY_DISABLED ??= '1'
// The layer reads each page before compressing it, so Next.js must not compress (next.config.ts).
process.env.FACET_OWN_COMPRESSION = '1'
const { default: next } = await import('next')

const port = Number(process.env.PORT || 3000)
const hostname = process.env.LISTEN_HOST || undefined
const distDir = process.env.NEXT_DIST_DIR || '.next'

// The host name Next.js knows itself by, whatever LISTEN_HOST is: its router and its proxy
// build their URLs from it in two places, and a rewrite is only internal when both agree
// (with 127.0.0.1 here, the proxy's rewrites went out as HTTP calls to localhost).
const app = next({ dev: false, dir: process.cwd(), hostname: 'localhost', port })
const handle = app.getRequestHandler()
// The warm-up starts as Next.js prepares, and waits for the port to open (server/warm.mjs).
const startWarmUp = holdWarmUp()
await app.prepare()

/** The probes; a shared cache adds its own readiness check with `health.addCheck`. */
export const health = createHealth()
// Ready means warm: the content store and the route index are loaded (server/warm.mjs).
health.addCheck('warm', warmCheck)
health.addInfo('warm', warmInfo)

const server = createServer(
  createSiteListener({
    handle,
    // The build's assets, from the Brotli copies that the build step wrote.
    serveStatic: createStaticHandler(distDir),
    prerendered: prerenderedPaths(distDir),
    health,
    maxConcurrent: Number(process.env.FACET_MAX_CONCURRENT_REQUESTS || DEFAULT_MAX_CONCURRENT),
    // A publish purges the CDN in front, when there is one (docs/deploy.md).
    cdn: createCdnPurge({ url: process.env.CDN_PURGE_URL }),
  }),
)
server.listen(port, hostname, () => {
  const { port: bound } = server.address()
  console.log(`Facet is serving on http://${hostname ?? 'localhost'}:${bound}`)
  startWarmUp()
})
// While it serves, this build is in use: `npm start` elsewhere will not rebuild it in place.
markServing(distDir)
drainOnSignals(server, {
  timeoutMs: Number(process.env.FACET_DRAIN_MS || DEFAULT_DRAIN_MS),
  onDrain: () => health.drain(),
})
