import { expect, test, type Page, type Request } from '@playwright/test'
import { workerChunks } from '../../scripts/lib/bundles.mjs'
import { canvasShare, expectRenderPath, slot, url3d, waitLive } from './three-helpers'

// What the 3D decides from the device rather than from its name: whether a worker can draw (the
// renderer's worker is fetched only where a probe worker's OffscreenCanvas gives a WebGL context),
// and the quality tier (a timed GPU probe, whatever the renderer calls itself).

test.use({ viewport: { width: 1000, height: 900 } })

/**
 * WebKit's case: OffscreenCanvas exists, but gives no WebGL context, in the page as in workers.
 * Runs wherever it is evaluated: the page (an init script) and workers (ahead of their scripts).
 */
const NO_OFFSCREEN_WEBGL = `(() => {
  if (typeof OffscreenCanvas === 'undefined') return
  const original = OffscreenCanvas.prototype.getContext
  OffscreenCanvas.prototype.getContext = function (kind, ...rest) {
    if (/webgl/.test(kind)) return null
    return original.call(this, kind, ...rest)
  }
})();
`

/**
 * Keeps the program of every script the page makes a `blob:` URL of (the WebGL probe's worker is
 * one: webgl-probe.ts), by URL, for `workerKinds`: the page revokes the URL once the probe has
 * answered. `ahead`, when given, goes ahead of each such program, as NO_OFFSCREEN_WEBGL goes ahead
 * of each worker script the server sends.
 */
const blobPrograms = (ahead = '') => `(() => {
  const programs = (window.__blobPrograms = {})
  const texts = new WeakMap()
  const NativeBlob = Blob
  window.Blob = class extends NativeBlob {
    constructor(parts = [], options) {
      const script = /javascript/.test(options?.type ?? '') && parts.every((p) => typeof p === 'string')
      const body = script ? [${JSON.stringify(ahead)}, ...parts] : parts
      super(body, options)
      if (script) texts.set(this, body.join(''))
    }
  }
  const create = URL.createObjectURL
  URL.createObjectURL = function (object) {
    const url = create.call(URL, object)
    if (texts.has(object)) programs[url] = texts.get(object)
    return url
  }
})();
`

/**
 * What a worker is, from the scripts it loads (Turbopack's worker bootstrap names them in its
 * URL's `params`; a `blob:` worker's program, as `blobPrograms` kept it): the renderer's (three.js
 * in them) or the WebGL probe (its program of a few lines).
 */
async function workerKinds(page: Page, urls: string[]): Promise<string[]> {
  return Promise.all(
    urls.map(async (url) => {
      if (url.startsWith('blob:')) {
        const program = await page.evaluate(
          (at) =>
            (window as unknown as { __blobPrograms?: Record<string, string> }).__blobPrograms?.[
              at
            ] ?? '',
          url,
        )
        return program.includes('WEBGL_lose_context') && !program.includes('WebGLRenderer')
          ? 'probe'
          : `unknown (${url})`
      }
      const params = new URL(url).hash.match(/params=(.*)$/)?.[1]
      const [chunks] = JSON.parse(decodeURIComponent(params ?? '[[]]')) as [string[]]
      const texts = await Promise.all(
        chunks.map(async (chunk) => (await page.request.get(chunk)).text()),
      )
      if (texts.some((text) => text.includes('WebGLRenderer'))) return 'renderer'
      if (texts.some((text) => text.includes('WEBGL_lose_context'))) return 'probe'
      return `unknown (${url})`
    }),
  )
}

/**
 * A renderer that calls itself "Apple GPU", as WebKit's software renderer does. Runs wherever
 * it is evaluated: the page (an init script) and the worker (prepended to the scripts it loads).
 */
const APPLE_GPU = `(() => {
  const UNMASKED_RENDERER = 0x9246
  for (const type of [self.WebGLRenderingContext, self.WebGL2RenderingContext]) {
    if (!type || type.prototype.__namedAppleGpu) continue
    const original = type.prototype.getParameter
    type.prototype.getParameter = function (name) {
      if (name === UNMASKED_RENDERER || name === this.RENDERER) return 'Apple GPU'
      return original.call(this, name)
    }
    type.prototype.__namedAppleGpu = true
  }
})();
`

type Fetched = { url: string; bytes: number }

/** The 3D's requests (scripts, the worker, models) from now on, with their bytes on the wire. */
function record3dBytes(page: Page): Fetched[] {
  const fetched: Fetched[] = []
  page.on('requestfinished', async (request: Request) => {
    const url = request.url()
    if (!/\.(m?js|glb)(\?|$)/.test(url)) return
    const sizes = await request.sizes()
    fetched.push({ url, bytes: sizes.responseBodySize + sizes.responseHeadersSize })
  })
  return fetched
}

/** A figure for the run's output and its report (tests assert behaviour, benches speed). */
function report(type: string, description: string) {
  test.info().annotations.push({ type, description })
  console.log(`${type}: ${description}`)
}

const kb = (fetched: Fetched[]) =>
  Math.round(fetched.reduce((sum, f) => sum + f.bytes, 0) / 102.4) / 10

/** Loads the showcase, asks for the 3D (the visitor's first scroll) and waits for the hero. */
async function heroLive(page: Page, pathname: string) {
  await page.goto(pathname, { waitUntil: 'load' })
  await page.mouse.move(500, 450)
  await page.mouse.wheel(0, 1)
  await waitLive(page, 0)
  expect(await canvasShare(page, slot(page, 0).stage)).toBeGreaterThan(0.05)
}

test('where an OffscreenCanvas gives no WebGL, the worker is never fetched and the main thread draws', async ({
  page,
}) => {
  await page.addInitScript(NO_OFFSCREEN_WEBGL)
  // The probe worker's program is not the page's: the same words go ahead of it (and of every
  // script a worker loads from the server).
  await page.addInitScript(blobPrograms(NO_OFFSCREEN_WEBGL))
  await page.route(/\.m?js(\?|$)/, async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, body: NO_OFFSCREEN_WEBGL + (await response.text()) })
  })
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await page.goto('/en-us/showcase?debug3d', { waitUntil: 'load' })
  const fetched = record3dBytes(page)
  await page.mouse.move(500, 450)
  await page.mouse.wheel(0, 1)
  // Not forced (no `main` flag): the page chose the main thread itself.
  await expect(slot(page, 0).root).toHaveAttribute('data-3d-state', 'live', { timeout: 30_000 })
  await expectRenderPath(page, 'main')
  expect(await canvasShare(page, slot(page, 0).stage)).toBeGreaterThan(0.05)
  // The probe worker was asked (nothing on the page's thread), and the renderer's worker never
  // fetched: straight to the main thread, no worker tried and given up on.
  expect(await workerKinds(page, workers)).toEqual(['probe'])
  expect(warnings.filter((w) => w.startsWith('3D:'))).toEqual([])
  report('3D bytes, main thread', `${kb(fetched)} KB`)
})

test('where an OffscreenCanvas gives WebGL, the worker draws', async ({ page }) => {
  await page.addInitScript(blobPrograms())
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  await page.goto('/en-us/showcase?debug3d', { waitUntil: 'load' })
  const fetched = record3dBytes(page)
  await page.mouse.move(500, 450)
  await page.mouse.wheel(0, 1)
  await waitLive(page, 0)
  await expectRenderPath(page, 'worker')
  expect(await workerKinds(page, workers)).toEqual(['probe', 'renderer'])
  report('3D bytes, worker', `${kb(fetched)} KB`)
})

/**
 * The render worker's scene chunks in the build the tests run (scripts/lib/bundles.mjs): the files
 * only the model scenes import, and those only the generated scenes do.
 */
function sceneFiles() {
  const { imports } = workerChunks()
  const models = imports.models ?? []
  const generated = imports.generated ?? []
  expect(models.length, 'the model scenes are a chunk of their own').toBeGreaterThan(0)
  expect(generated.length, 'the generated scenes are a chunk of their own').toBeGreaterThan(0)
  return {
    models: models.filter((file) => !generated.includes(file)),
    generated: generated.filter((file) => !models.includes(file)),
  }
}

/**
 * The paths of the site's scripts the page and its workers ask for, as they ask, each noting
 * whether the visitor had engaged then (`engaged`, set by the test).
 */
function scriptsAsked(page: Page) {
  const scripts = { engaged: false, asked: [] as { path: string; engaged: boolean }[] }
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/_next/static/chunks/'))
      scripts.asked.push({ path, engaged: scripts.engaged })
  })
  return scripts
}

test('the home page, whose only 3D is its generated hero, loads none of the model scenes’ code', async ({
  page,
}) => {
  const files = sceneFiles()
  const scripts = scriptsAsked(page)
  await page.goto('/en-us?debug3d', { waitUntil: 'load' })
  await waitLive(page, 0)
  await expectRenderPath(page, 'worker')
  const paths = scripts.asked.map((a) => a.path)
  for (const file of files.generated) expect(paths, file).toContain(file)
  expect(paths.filter((path) => files.models.includes(path))).toEqual([])
})

/** Keeps the page from going quiet: a task of 60 ms each second, as a page's own scripts make. */
const keepBusy = (page: Page) =>
  page.addInitScript(() => {
    ;(window as unknown as { __busy: number }).__busy = window.setInterval(() => {
      const end = performance.now() + 60
      while (performance.now() < end);
    }, 1000)
  })

const stopBusy = (page: Page) =>
  page.evaluate(() => clearInterval((window as unknown as { __busy: number }).__busy))

test('near the screen, the worker starts and fetches the model before the visitor engages; the engagement takes that worker', async ({
  page,
}) => {
  await page.addInitScript(blobPrograms())
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  const files = sceneFiles()
  const scripts = scriptsAsked(page)
  const models: { url: string; at: 'before' | 'after'; time: number }[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.glb'))
      models.push({
        url: request.url(),
        at: scripts.engaged ? 'after' : 'before',
        time: Date.now(),
      })
  })
  // When the page first had a canvas (the 3D's start: engagement, or the quiet window's end).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('canvas')) return
      ;(window as unknown as { __canvasAt: number }).__canvasAt = Date.now()
      observer.disconnect()
    }).observe(document, { childList: true, subtree: true })
  })
  // The page is kept from going quiet: at the quiet window's end the 3D starts by itself, with a
  // canvas (when-to-load.ts), and on a busy machine the warm-up can take longer than that window
  // (in CI the canvas once came first). A task of 60 ms each second, as a page's own scripts
  // make, restarts the window, so only the warm-up can have fetched a model before engagement.
  await keepBusy(page)
  await page.goto('/en-us/showcase?debug3d', { waitUntil: 'load' })
  // Nobody engages: once the page is idle, the slots near the screen have their models fetched,
  // each the variant of the tier the worker measured, and the page has no canvas.
  await expect
    .poll(() => models.filter((m) => m.at === 'before').length, { timeout: 30_000 })
    .toBeGreaterThan(0)
  await stopBusy(page)
  const canvasAt = await page.evaluate(
    () => (window as unknown as { __canvasAt?: number }).__canvasAt ?? null,
  )
  expect(canvasAt, 'a canvas before the visitor engaged').toBeNull()
  for (const model of models)
    expect(new URL(model.url).searchParams.get('tier')).toMatch(/^(low|high)$/)
  expect(await workerKinds(page, workers)).toEqual(['probe', 'renderer'])
  // And the code of its scenes, each of its files: the showcase has both kinds.
  const sceneCode = [...files.models, ...files.generated]
  await expect
    .poll(() => sceneCode.filter((file) => !scripts.asked.some((s) => s.path === file)))
    .toEqual([])
  scripts.engaged = true
  await page.mouse.move(500, 450)
  await page.mouse.wheel(0, 1)
  await waitLive(page, 0)
  await expectRenderPath(page, 'worker')
  // The same two workers: the renderer warmed up is the one that draws, with the bytes it fetched.
  expect(await workerKinds(page, workers)).toEqual(['probe', 'renderer'])
  const before = new Set(models.filter((m) => m.at === 'before').map((m) => m.url))
  expect(models.filter((m) => m.at === 'after' && before.has(m.url))).toEqual([])
  // The scenes' code, all of it before the visitor engaged (fetched, then run from the HTTP cache:
  // asked for twice), none after.
  expect(scripts.asked.filter((s) => sceneCode.includes(s.path) && s.engaged)).toEqual([])
})

test('a model over the warm-up cap is not fetched whole before the visitor engages, and still goes live after', async ({
  page,
}) => {
  // The showcase's models, padded past the cap (512 KiB) as a scan's variant would be: a GLB's
  // bytes after the length its header declares are not read, so the models stay the same.
  const padding = new Uint8Array(600 * 1024)
  let engaged = false
  const asked: { path: string; at: 'before' | 'after' }[] = []
  await page.route(/\.glb(\?|$)/, async (route) => {
    asked.push({ path: new URL(route.request().url()).pathname, at: engaged ? 'after' : 'before' })
    const response = await route.fetch()
    const body = Buffer.concat([await response.body(), padding])
    await route.fulfill({
      response,
      body,
      headers: { ...response.headers(), 'content-length': String(body.length) },
    })
  })
  // As above: the page never goes quiet, so only the warm-up can ask for a model before engagement.
  await keepBusy(page)
  await page.goto('/en-us/showcase?debug3d', { waitUntil: 'load' })
  await expect
    .poll(() => asked.filter((a) => a.at === 'before').length, { timeout: 30_000 })
    .toBeGreaterThan(0)
  await stopBusy(page)
  expect(await page.locator('canvas').count(), 'a canvas before the visitor engaged').toBe(0)

  engaged = true
  await page.mouse.move(500, 450)
  await page.mouse.wheel(0, 1)
  await waitLive(page, 0)
  // Each model the warm-up gave up on is fetched again, whole, once the visitor is here.
  const before = new Set(asked.filter((a) => a.at === 'before').map((a) => a.path))
  await expect
    .poll(() =>
      [...before].filter((path) => asked.some((a) => a.at === 'after' && a.path === path)),
    )
    .toEqual([...before])
  // A model still on its way when the test ends would meet a closed context in the route above
  // ("Response has been disposed"); what the visitor sees is asserted by now.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

for (const path of ['worker', 'main'] as const) {
  test(`a software renderer gets the low tier even when it calls itself "Apple GPU" (${path} path)`, async ({
    page,
  }) => {
    await page.addInitScript(APPLE_GPU)
    // The worker's scripts are not the page's: the same words go ahead of each script it loads.
    await page.route(/\.m?js(\?|$)/, async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, body: APPLE_GPU + (await response.text()) })
    })
    await heroLive(page, url3d('/en-us/showcase', path))
    const named = await page.evaluate(() => {
      const gl = new OffscreenCanvas(1, 1).getContext('webgl2')!
      const name = gl.getParameter(
        gl.getExtension('WEBGL_debug_renderer_info')!.UNMASKED_RENDERER_WEBGL,
      )
      gl.getExtension('WEBGL_lose_context')?.loseContext()
      return name
    })
    expect(named, 'the renderer calls itself so').toBe('Apple GPU')
    const { tier, ceiling, probeMs } = await page.evaluate(
      () =>
        (window as unknown as { __facet3d: { tier: string; ceiling: number; probeMs: number } })
          .__facet3d,
    )
    // SwiftShader: the probe's draws are slow, so the tier is low and the pixel ratio stays 1.
    expect({ tier, ceiling }).toEqual({ tier: 'low', ceiling: 1 })
    report(`GPU probe, ${path} path`, `${probeMs.toFixed(1)} ms per draw`)
  })
}
