// Models as designers export them (tests/fixtures/model-corpus.ts), each in the showcase's model
// viewer in place of its lamp, on both render paths: each goes live with its texture showing,
// fetches its decoders from the site and nothing it does not need, an animated one moves (and
// stays still under reduced motion), and nothing breaks the page's policy or throws, in the
// page or in the render worker. A file that cannot be drawn shows the poster and the slice's
// message, and the console names the file and the reason once.
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './support/visitor'
import {
  brokenModels,
  CORPUS,
  modelCorpus,
  textureShares,
  type CorpusModel,
} from '../fixtures/model-corpus'
import {
  changedShare,
  expectHotspotList,
  frames,
  pixels,
  RENDER_PATHS,
  showcase,
  slot,
  url3d,
  waitLive,
} from './three-helpers'
import { readFileSync } from 'node:fs'
import { REVISION } from 'three'

const VIEWER = 2
const content = showcase('en-us')
const LAMP = (url: URL) => url.pathname.endsWith('/models/lamp.glb')

test.use({ viewport: { width: 1000, height: 900 } })

/** Console errors, uncaught errors and policy violations (the worker's reach the page). */
async function record(page: Page) {
  const problems: string[] = []
  const errors: string[] = []
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  const decoders: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/3d-decoders/')) decoders.push(url.pathname.split('/').pop()!)
  })
  return { problems, errors, decoders }
}

/**
 * The checker's shares in `stage`, read again for up to 3 s until both show: once in CI, Firefox's
 * read-back of the animated model showed no red (cause not traced). A texture that failed shows in
 * no frame, so this still fails for it.
 */
async function textured(stage: Locator): Promise<{ red: number; green: number }> {
  const until = Date.now() + 3_000
  for (;;) {
    const shares = textureShares((await pixels(stage)).data)
    if ((shares.red > 0.01 && shares.green > 0.01) || Date.now() > until) return shares
    await stage.page().waitForTimeout(250)
  }
}

/** Of a screenshot, the shares of pixels in each checker's colours (see `textureShares`). */
function shares({ data }: { data: Buffer }): { red: number; green: number; blue: number } {
  let blue = 0
  for (let i = 0; i < data.length; i += 3)
    if (data[i + 2]! > data[i]! + 60 && data[i + 2]! > data[i + 1]! + 60) blue++
  return { ...textureShares(data), blue: blue / (data.length / 3) }
}

/** Serves `bytes` in place of the viewer's lamp. */
async function swapLamp(page: Page, bytes: Uint8Array) {
  await page.route(LAMP, (route) =>
    route.fulfill({ body: Buffer.from(bytes), contentType: 'model/gltf-binary' }),
  )
}

/**
 * The decoders a model needs, by its extensions. (The KTX2 transcoder's worker script is
 * requested by a worker, which Playwright does not always report: it is left out of both sides.)
 */
function decodersFor(model: CorpusModel): string[] {
  const files = []
  if (model.extensions.includes('KHR_draco_mesh_compression'))
    files.push('draco_decoder.wasm', 'draco_wasm_wrapper.js')
  if (model.extensions.includes('KHR_texture_basisu')) files.push('basis_transcoder.wasm')
  return files.sort()
}

const fetchedDecoders = (seen: string[]) =>
  [...new Set(seen)].filter((file) => file !== 'ktx2_transcoder.worker.js').sort()

/** A model of the corpus (made once per run, then read from disk). */
async function corpusModel(name: string): Promise<CorpusModel> {
  return (await modelCorpus()).find((model) => model.name === name)!
}

for (const path of RENDER_PATHS) {
  test.describe(`models as designers export them, ${path} path`, () => {
    for (const name of CORPUS) {
      test(`${name} goes live, drawn as made`, async ({ tab: page }) => {
        test.slow(name === 'heavy')
        const model = await corpusModel(name)
        const seen = await record(page)
        await swapLamp(page, readFileSync(model.file))
        await page.goto(url3d('/en-us/showcase', path))
        await waitLive(page, VIEWER, name === 'heavy' ? 60_000 : undefined)
        const shares = await textured(slot(page, VIEWER).stage)
        // Both colours of the checker show: the texture is drawn, not a flat grey.
        expect(shares.red, 'red texels').toBeGreaterThan(0.01)
        expect(shares.green, 'green texels').toBeGreaterThan(0.01)
        expect(fetchedDecoders(seen.decoders)).toEqual(decodersFor(model))
        expect(seen.problems).toEqual([])
        expect(seen.errors).toEqual([])
      })
    }

    test('a model with material variants: a row of its finishes; a press switches the materials, says so and names it in the URL, and that URL opens in it', async ({
      tab: page,
    }) => {
      const model = await corpusModel('variants')
      const seen = await record(page)
      await swapLamp(page, readFileSync(model.file))
      await page.goto(url3d('/en-us/showcase', path))
      await waitLive(page, VIEWER)
      const { root, stage } = slot(page, VIEWER)
      const row = root.locator('[data-3d-variants]')
      // The slot's live region says each finish once it is on screen.
      const status = root.locator('[data-3d-status]')
      await expect(row.getByRole('button')).toHaveText(['Checker', 'Ink', 'Clay'])
      for (const button of await row.getByRole('button').all())
        await expect(button).toHaveAttribute('aria-pressed', 'false')
      // The model's own material first: the red and green checker.
      expect(shares(await pixels(stage)).blue).toBeLessThan(0.002)

      // Ink: its own blue and yellow checker replaces the red and green one, once on screen.
      await row.getByRole('button', { name: 'Ink' }).click()
      await expect(row.getByRole('button', { name: 'Ink' })).toHaveAttribute('aria-pressed', 'true')
      // Said with the showcase slice's name for its row; the model's own name for the finish
      // (the slice relabels the lamp's, not this model's).
      await expect(status).toHaveText(`${content.viewer.variants_label}: Ink`)
      await frames(page)
      const ink = shares(await pixels(stage))
      expect(ink.blue, 'blue texels').toBeGreaterThan(0.01)
      expect(ink.green, 'green texels').toBeLessThan(0.002)
      expect(new URL(page.url()).searchParams.get('variant')).toBe('Ink')

      // Clay: a plain finish, neither checker.
      await row.getByRole('button', { name: 'Clay' }).click()
      await expect(status).toHaveText(`${content.viewer.variants_label}: Clay`)
      await frames(page)
      const clay = shares(await pixels(stage))
      expect(clay.blue).toBeLessThan(0.002)
      expect(clay.green).toBeLessThan(0.002)
      expect(new URL(page.url()).searchParams.get('variant')).toBe('Clay')

      // The URL opens the model in the variant it names, said by the pressed button alone (the
      // live region says the model is live, no finish).
      await page.goto(url3d('/en-us/showcase', path) + '&variant=Ink')
      await waitLive(page, VIEWER)
      await expect(row.getByRole('button', { name: 'Ink' })).toHaveAttribute('aria-pressed', 'true')
      await expect
        .poll(async () => shares(await pixels(stage)).blue, { message: 'blue texels' })
        .toBeGreaterThan(0.01)
      await expect(status).toHaveText(content.viewer.live_message)
      expect(seen.problems).toEqual([])
      expect(seen.errors).toEqual([])
    })

    test('an animated model plays its clip, and holds still under reduced motion', async ({
      browser,
    }) => {
      const animated = (await modelCorpus()).find((model) => model.animated)!
      for (const reducedMotion of ['no-preference', 'reduce'] as const) {
        const context = await browser.newContext({
          reducedMotion,
          viewport: { width: 1000, height: 900 },
        })
        const page = await context.newPage()
        const seen = await record(page)
        await swapLamp(page, readFileSync(animated.file))
        // `motion`: the software renderer here plays motion as a GPU would.
        await page.goto(url3d('/en-us/showcase', path, 'motion'))
        await waitLive(page, VIEWER)
        const stage = slot(page, VIEWER).stage
        const before = await pixels(stage)
        await page.waitForTimeout(800)
        const after = await pixels(stage)
        if (reducedMotion === 'reduce') expect(changedShare(before, after)).toBe(0)
        else expect(changedShare(before, after)).toBeGreaterThan(0.01)
        expect(seen.problems).toEqual([])
        expect(seen.errors).toEqual([])
        await context.close()
      }
    })

    test('a model that cannot be drawn: poster, message, and one console line naming it', async ({
      page,
    }) => {
      for (const broken of await brokenModels()) {
        const seen = await record(page)
        await page.unroute(LAMP)
        await swapLamp(page, broken.bytes)
        await page.goto(url3d('/en-us/showcase', path))
        const viewer = slot(page, VIEWER)
        await viewer.stage.scrollIntoViewIfNeeded()
        await expect(viewer.root, broken.name).toHaveAttribute('data-3d-state', 'error', {
          timeout: 30_000,
        })
        await expect(viewer.root.locator('p[aria-hidden="true"]')).toHaveText(
          content.viewer.error_message,
        )
        await expect(viewer.root.getByRole('status')).toHaveText(content.viewer.error_message)
        await expect(viewer.poster).toBeVisible()
        // The hotspots' words stay, listed under the poster.
        await expectHotspotList(page)
        const lines = seen.errors.filter((line) => line.includes('lamp.glb'))
        expect(lines, broken.name).toHaveLength(1)
        expect(lines[0], broken.name).toMatch(/^3D: the model \S+lamp\.glb\S* cannot be drawn: /)
        expect(lines[0], broken.name).toMatch(broken.reason)
        expect(seen.problems, broken.name).toEqual([])
        page.removeAllListeners('console')
        page.removeAllListeners('pageerror')
        page.removeAllListeners('request')
      }
    })
  })
}

test('the decoders come from the site, cached for good; the KTX2 worker runs under its own policy', async ({
  request,
}) => {
  // three's revision names the folder: a new three is a new URL.
  const base = `/3d-decoders/r${REVISION}/`
  for (const file of ['draco_decoder.wasm', 'draco_wasm_wrapper.js', 'basis_transcoder.wasm']) {
    const response = await request.get(base + file)
    expect(response.status(), file).toBe(200)
    expect(response.headers()['cache-control'], file).toContain('immutable')
  }
  const worker = await request.get(`${base}ktx2_transcoder.worker.js`)
  expect(worker.status()).toBe(200)
  expect(worker.headers()['content-type']).toContain('javascript')
  // One policy, the worker's: eval and WebAssembly, and no fetch, script or worker of any origin.
  expect(worker.headers()['content-security-policy']).toBe(
    "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  )
  expect(await worker.text()).toContain('var BASIS = ')
  // The page's own policy keeps no eval.
  const page = await request.get('/en-us/showcase')
  expect(page.headers()['content-security-policy']).not.toContain("'unsafe-eval'")
  expect((await request.get(`${base}no_such_decoder.js`)).status()).toBe(404)
  expect((await request.get('/3d-decoders/r1/draco_decoder.wasm')).status()).toBe(404)
})
