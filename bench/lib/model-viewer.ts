// Google's `<model-viewer>` beside Facet's viewer, for `npm run bench:viewers`: the package from
// npm (a pinned version, fetched into .data/ by `npm pack` the first time, never a dependency of
// the site), served by a small static server of the bench's own with its decoders local, as a
// studio serving it offline would have to (Draco and Basis from three's own files, meshopt's from
// the meshoptimizer package), and measured with the protocol of bench/lib/viewer-live.ts: a
// phone's viewport, CPU 4× slower, the page loaded and quiet, then the visitor scrolls to the
// viewer; from the scroll to the element's `load` event.
//
// The server is node:http because it is the bench's only need: a few files from disk, Brotli (or
// gzip) as Facet's server sends its own.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Browser } from '@playwright/test'
import { TASK_TRACE_CATEGORIES } from './trace-tasks.mjs'
import {
  blocking,
  countBytes,
  PHONE,
  throttle,
  tasksBetween,
  waitsForQuiet,
  writeTrace,
  type LiveRun,
} from './viewer-live'

export const MODEL_VIEWER_VERSION = '4.4.0'
const CACHE = path.resolve('.data/bench/model-viewer', MODEL_VIEWER_VERSION)
const THREE_LIBS = path.resolve('node_modules/three/examples/jsm/libs')

/** The package's self-contained build (three.js and lit inside), fetched from npm once. */
export function modelViewerScript(): string {
  const file = path.join(CACHE, 'package/dist/model-viewer.min.js')
  if (existsSync(file)) return file
  mkdirSync(CACHE, { recursive: true })
  const tarball = execFileSync(
    'npm',
    [
      'pack',
      `@google/model-viewer@${MODEL_VIEWER_VERSION}`,
      '--silent',
      '--pack-destination',
      CACHE,
    ],
    { encoding: 'utf8' },
  ).trim()
  execFileSync('tar', ['-xzf', path.join(CACHE, tarball), '-C', CACHE])
  if (!existsSync(file)) throw new Error(`npm pack @google/model-viewer gave no ${file}`)
  return file
}

/** The page: a block as tall as the showcase's content above its viewer, then the viewer. */
function page(model: string, stage: LiveRun['stage'], attributes = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>model-viewer</title>
${decodersConfig('')}
<script type="module" src="/model-viewer.min.js"></script>
<style>body{margin:0;font:16px system-ui}.above{height:${Math.round(stage.top)}px;padding:1rem}
model-viewer{display:block;width:${Math.round(stage.width)}px;height:${Math.round(stage.height)}px;margin:0 auto}</style>
</head><body>
<div class="above"><h1>Showcase</h1><p>The content above the viewer.</p></div>
<model-viewer src="/models/${encodeURIComponent(model)}" alt="The model" camera-controls ${attributes}></model-viewer>
</body></html>`
}

/** What the bench's server answers: paths to files, gzipped where a host would. */
export type ModelViewerSite = {
  origin: string
  /**
   * Serves `file` at `/models/<name>` and returns the page's URL that shows it (with the element's
   * `attributes` besides, on its own page).
   */
  show: (name: string, file: string, stage: LiveRun['stage'], attributes?: string) => string
  close: () => Promise<void>
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.html': 'text/html; charset=utf-8',
  '.glb': 'model/gltf-binary',
}

/** The element's files, by the path the page asks for them under `prefix`. */
function anchorFiles(prefix: string): Map<string, string> {
  return new Map<string, string>([
    [`${prefix}/model-viewer.min.js`, modelViewerScript()],
    [
      `${prefix}/meshopt_decoder.js`,
      path.resolve('node_modules/meshoptimizer/meshopt_decoder.cjs'),
    ],
    [`${prefix}/draco/draco_decoder.js`, path.join(THREE_LIBS, 'draco/gltf/draco_decoder.js')],
    [`${prefix}/draco/draco_decoder.wasm`, path.join(THREE_LIBS, 'draco/gltf/draco_decoder.wasm')],
    [
      `${prefix}/draco/draco_wasm_wrapper.js`,
      path.join(THREE_LIBS, 'draco/gltf/draco_wasm_wrapper.js'),
    ],
    [`${prefix}/basis/basis_transcoder.js`, path.join(THREE_LIBS, 'basis/basis_transcoder.js')],
    [`${prefix}/basis/basis_transcoder.wasm`, path.join(THREE_LIBS, 'basis/basis_transcoder.wasm')],
  ])
}

/** The element's configuration: its decoders from `prefix` on this origin, not Google's CDN. */
const decodersConfig = (prefix: string) => `<script>
  self.ModelViewerElement = {
    dracoDecoderLocation: '${prefix}/draco/',
    ktx2TranscoderLocation: '${prefix}/basis/',
    meshoptDecoderLocation: '${prefix}/meshopt_decoder.js',
  }
</script>`

/**
 * Sends `body` (a file's or a page's) as a host would: Brotli where the browser asks for it, else
 * gzip, the model included, as Facet's server sends its own files, so that neither pays for bytes
 * the other is spared. Compressed copies of files are kept by `key`.
 */
function sendEncoded(
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer,
  type: string,
  kept: Map<string, Buffer> | null,
  key: string,
) {
  const accepts = String(request.headers['accept-encoding'])
  const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null
  if (encoding) {
    const cached = kept?.get(`${encoding} ${key}`)
    body =
      cached ??
      (encoding === 'br'
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipSync(body, { level: 9 }))
    kept?.set(`${encoding} ${key}`, body)
  }
  response.writeHead(200, {
    'content-type': TYPES[type] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'no-cache',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  })
  response.end(body)
}

export async function serveModelViewer(): Promise<ModelViewerSite> {
  const files = anchorFiles('')
  const pages = new Map<string, string>()
  const zipped = new Map<string, Buffer>()
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bench')
    const html = pages.get(url.pathname)
    const file = files.get(url.pathname)
    if (!html && !file) {
      response.writeHead(404).end()
      return
    }
    if (html) sendEncoded(request, response, Buffer.from(html), '.html', null, url.pathname)
    else
      sendEncoded(request, response, readFileSync(file!), path.extname(file!), zipped, url.pathname)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    show: (name, file, stage, attributes) => {
      files.set(`/models/${name}`, file)
      pages.set(`/${name}.html`, page(name, stage, attributes))
      return `${origin}/${name}.html`
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Where the same-page anchor's own files are, on the showcase's origin. */
const ANCHOR = '/__anchor'

/**
 * `<model-viewer>` in Facet's own showcase page, for `--network slow4g`: a server in front of the
 * site (`facet`) that passes every request on, except the showcase itself, which it answers as
 * the site wrote it (its HTML, styles, images and fonts, the same scroll to the viewer) with the
 * site's scripts taken out and `<model-viewer>` in the viewer's stage, and the element's files
 * and the model, which it serves from this same origin, Brotli-compressed. So both viewers are
 * measured in the same page, from one origin, over the same network; the site's policy header is
 * left out for this page (it would refuse the element's inline configuration).
 */
export async function serveAnchorInShowcase(facet: string): Promise<ModelViewerSite> {
  const files = anchorFiles(ANCHOR)
  const zipped = new Map<string, Buffer>()
  const shown = new Map<string, string>()
  const target = new URL(facet)
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bench')
    const file = files.get(url.pathname)
    if (file) {
      sendEncoded(request, response, readFileSync(file), path.extname(file), zipped, url.pathname)
      return
    }
    const model = url.searchParams.get('anchor')
    if (model && shown.has(model)) {
      void fetch(`${facet}${url.pathname}`, { headers: { 'accept-encoding': 'identity' } })
        .then((answer) => answer.text())
        .then((html) => {
          const body = html
            .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
            .replace(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*as="script"[^>]*>/g, '')
            .replace(
              '</head>',
              `${decodersConfig(ANCHOR)}<script type="module" src="${ANCHOR}/model-viewer.min.js"></script></head>`,
            )
            .replace(
              '</body>',
              `<script>
  const stage = document.querySelector('[data-3d-kind="viewer"] [data-3d-stage]')
  const viewer = document.createElement('model-viewer')
  viewer.setAttribute('src', '${ANCHOR}/models/${encodeURIComponent(model)}')
  viewer.setAttribute('alt', stage.getAttribute('aria-label') || 'The model')
  viewer.setAttribute('camera-controls', '')
  viewer.style.cssText = 'display:block;position:absolute;inset:0;width:100%;height:100%'
  stage.replaceChildren(viewer)
</script></body>`,
            )
          sendEncoded(request, response, Buffer.from(body), '.html', null, url.pathname)
        })
        .catch((error: unknown) => response.writeHead(502).end(String(error)))
      return
    }
    // Everything else is the site's, as it answers it.
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: target.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', (error) => response.writeHead(502).end(String(error)))
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    show: (name, file) => {
      files.set(`${ANCHOR}/models/${name}`, file)
      shown.set(name, file)
      return `${origin}/en-us/showcase?anchor=${encodeURIComponent(name)}`
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export type AnchorRun = Pick<
  LiveRun,
  'state' | 'timeToLiveMs' | 'longestTaskMs' | 'blockingMs' | 'bytesBeforeScroll' | 'bytesToLive'
>

/** The `<model-viewer>` page at `url`, measured as Facet's showcase is (viewer-live.ts). */
export async function measureAnchor(
  browser: Browser,
  url: string,
  /** Trace every thread from the scroll to `load`, and write where their time went here. */
  tracePath?: string,
): Promise<AnchorRun> {
  const context = await browser.newContext({ ...PHONE, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await throttle(cdp)
  const bytes = countBytes(context)
  // tsx (esbuild, keepNames) wraps named functions below with `__name`, which the page lacks.
  await page.addInitScript('globalThis.__name = (fn) => fn')
  await page.addInitScript(() => {
    const w = window as unknown as {
      __tasks: { start: number; duration: number }[]
      __loaded: number | null
    }
    w.__tasks = []
    w.__loaded = null
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        w.__tasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
    // Heard from the start: a viewer that loads before the scroll is reported as such.
    document.addEventListener(
      'load',
      (event) => {
        if ((event.target as Element).localName === 'model-viewer') w.__loaded ??= performance.now()
      },
      true,
    )
  })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(1500)
  // The element defined (its script is in the page's head); then, unless the visitor scrolls
  // early (`--arrival early`: now), loaded and quiet: no long task for a second (up to 15 s).
  await page.evaluate(() => customElements.whenDefined('model-viewer'))
  if (waitsForQuiet()) {
    await page
      .waitForFunction(
        () => {
          const tasks = (window as unknown as { __tasks: { start: number; duration: number }[] })
            .__tasks
          const last = Math.max(0, ...tasks.map((t) => t.start + t.duration))
          return performance.now() - last >= 1000
        },
        undefined,
        { polling: 100, timeout: 15_000 },
      )
      .catch(() => {})
  }
  const bytesBeforeScroll = waitsForQuiet() ? await bytes.settle() : bytes.sofar()
  if (tracePath) await browser.startTracing(page, { categories: TASK_TRACE_CATEGORIES })
  const result = await page.evaluate(
    () =>
      new Promise<{ state: string; start: number; end: number }>((resolve) => {
        const viewer = document.querySelector('model-viewer')!
        const start = performance.mark('bench-trace-zero').startTime
        const w = window as unknown as { __loaded: number | null }
        if (w.__loaded !== null)
          return resolve({ state: 'live before the scroll', start, end: start })
        const timer = setTimeout(
          () => resolve({ state: 'timeout', start, end: performance.now() }),
          90_000,
        )
        viewer.addEventListener('load', () => {
          clearTimeout(timer)
          resolve({ state: 'live', start, end: performance.now() })
        })
        viewer.addEventListener('error', () => {
          clearTimeout(timer)
          resolve({ state: 'error', start, end: performance.now() })
        })
        viewer.scrollIntoView({ block: 'center' })
      }),
  )
  if (tracePath) await writeTrace(browser, tracePath)
  const during = await tasksBetween(page, result.start, result.end)
  const bytesToLive = (await bytes.settle()) - bytesBeforeScroll
  await context.close()
  return {
    state: result.state,
    timeToLiveMs: Math.round(result.end - result.start),
    longestTaskMs: Math.round(Math.max(0, ...during.map((t) => t.duration))),
    blockingMs: blocking(during),
    bytesBeforeScroll,
    bytesToLive,
  }
}
