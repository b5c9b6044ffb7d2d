import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from '../e2e/support/visitor'
import { compressToEncodedURIComponent } from 'lz-string'
import sharp from 'sharp'
import { apiSliceMocksOf, slicesWithMocks, visibleText } from '../../scripts/slices/api-mocks'

/**
 * Slice Machine as a developer runs it on the project, offline and logged out: every slice in
 * its list with its screenshot, and every variation in its simulator (the site's
 * /slice-simulator, framed by Slice Machine and fed the mock over its postMessage channel)
 * showing the mock's text.
 */

const SLICES = slicesWithMocks()
/** The slices with a 3D scene over a poster. */
const THREE_D = new Set(['hero', 'model_viewer'])
/** The development server Slice Machine frames (tests/suites/slicemachine.playwright.ts). */
const SITE = `http://127.0.0.1:${process.env.SLICEMACHINE_SITE_PORT || 3247}`
/** Slice Machine's URL segment for the library `./src/slices` ("/" becomes "--"). */
const LIBRARY = './src/slices'.replace(/\//g, '--')

type Model = {
  name: string
  variations: {
    id: string
    name: string
    primary?: Record<string, { config?: { label?: string } }>
  }[]
}

/** The largest standard deviation of a colour channel in a PNG: near 0 for a flat colour. */
async function spreadOf(png: Buffer): Promise<number> {
  const { channels } = await sharp(png).stats()
  return Math.max(...channels.slice(0, 3).map((channel) => channel.stdev))
}

/**
 * What Slice Machine shows of an element in its simulator's frame: the middle of the element's
 * box, cut from a screenshot of Slice Machine's page. The frame is scaled to fit its pane, and a
 * Playwright element screenshot inside it is taken at the unscaled size (it shows the editor
 * beside the frame), so the box is mapped through the frame's scale here.
 */
async function shownInFrame(page: Page, element: Locator): Promise<Buffer> {
  const frame = await page.locator('iframe').evaluate((f: HTMLIFrameElement) => {
    const box = f.getBoundingClientRect()
    const scale = box.width / f.offsetWidth
    return { x: box.x + f.clientLeft * scale, y: box.y + f.clientTop * scale, scale }
  })
  const box = await element.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return { x: r.x, y: r.y, width: r.width, height: r.height }
  })
  // The middle 80 %: clear of the rounded corners and of the frame's edges.
  const s = frame.scale
  return page.screenshot({
    clip: {
      x: frame.x + (box.x + box.width * 0.1) * s,
      y: frame.y + (box.y + box.height * 0.1) * s,
      width: box.width * 0.8 * s,
      height: box.height * 0.8 * s,
    },
  })
}

function modelOf(name: string): Model {
  return JSON.parse(readFileSync(path.join('src', 'slices', name, 'model.json'), 'utf8'))
}

test('lists every slice with a screenshot of each variation', async ({ page }) => {
  await page.goto('/slices')
  for (const name of SLICES) {
    const card = page.getByRole('link', { name: new RegExp(`^${modelOf(name).name}\\b`) })
    await expect(card.first()).toBeVisible()
  }
  await expect(page.getByText('Missing screenshot')).toHaveCount(0)
  // Each card's image is the slice's screenshot, served by Slice Machine, and it loads.
  const images = page.locator('main img')
  await expect(images).toHaveCount(SLICES.length)
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true)
  }
})

test('the simulator opened with its slices in the URL shows them, with no hydration failure', async ({
  page,
}) => {
  // As a frame reloaded on the simulator's last address has it: the slices in the `state`
  // parameter, which the simulator's own script reads from the address. The frame is made in a
  // page of Slice Machine's origin, which the simulator's `frame-ancestors` allows.
  const mock = apiSliceMocksOf('Faq')[0]!
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/')
  const state = compressToEncodedURIComponent(JSON.stringify([mock]))
  await page.evaluate((src) => {
    const frame = document.createElement('iframe')
    frame.id = 'reloaded'
    frame.src = src
    frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;z-index:999999'
    document.body.append(frame)
  }, `${SITE}/slice-simulator?state=${state}`)
  const frame = page.frameLocator('#reloaded')
  const slice = frame.locator(`[data-slice-type="${mock.slice_type}"]`)
  await expect(slice).toContainText(visibleText('Faq', mock.variation))
  // React reports a hydration failure once the frame's scripts have run: wait for its load.
  await expect
    .poll(() => frame.locator('html').evaluate(() => document.readyState))
    .toBe('complete')
  expect(errors).toEqual([])
})

for (const name of SLICES) {
  for (const mock of apiSliceMocksOf(name)) {
    test(`the simulator shows ${name} / ${mock.variation} from its mock`, async ({ tab: page }) => {
      // Uncaught errors of Slice Machine's page and of the simulator's frame (a hydration
      // failure among them) fail the test.
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`/slices/${LIBRARY}/${modelOf(name).name}/${mock.variation}/simulator`)
      const frame = page.frameLocator('iframe')
      const slice = frame.locator(
        `[data-slice-type="${mock.slice_type}"][data-slice-variation="${mock.variation}"]`,
      )
      await expect(slice).toBeVisible({ timeout: 30_000 })
      await expect(slice).toContainText(visibleText(name, mock.variation))
      // A 3D slot shows its poster until its scene is drawn: the poster's pixels, an image's
      // spread of colours rather than the stage's flat background, before the 3D starts. A slot
      // with a scene then starts it when the developer engages (a pointer over it) and settles:
      // live in Chromium's software WebGL, or back on its poster. Live, the poster has faded and
      // the stage shows the scene, drawn over the simulator's own (opaque) layer: an image's
      // spread of colours again, not the stage's flat background.
      if (THREE_D.has(mock.slice_type)) {
        const slot = slice.locator('[data-3d-state]').first()
        const stage = slot.locator('[data-3d-stage]')
        await expect
          .poll(async () => spreadOf(await shownInFrame(page, stage)), { timeout: 15_000 })
          .toBeGreaterThan(12)
        if ((await slot.getAttribute('data-3d-kind')) !== 'none') {
          await slot.hover()
          await expect(slot).toHaveAttribute('data-3d-state', /^(live|unsupported|error|lost)$/, {
            timeout: 30_000,
          })
          if ((await slot.getAttribute('data-3d-state')) === 'live') {
            // The poster is the stage's first child; it fades out (0.6 s) once the scene is drawn.
            await expect
              .poll(() => stage.evaluate((el) => getComputedStyle(el.firstElementChild!).opacity))
              .toBe('0')
          }
          await expect
            .poll(async () => spreadOf(await shownInFrame(page, stage)), { timeout: 15_000 })
            .toBeGreaterThan(12)
        }
      }
      await expect(page.getByText("can't render your slice")).toHaveCount(0)
      // Its mock editor shows the mock's fields (it fails, "Editor error", on a mock it cannot
      // parse, such as a relative image URL).
      const variation = modelOf(name).variations.find((v) => v.id === mock.variation)!
      const firstLabel = Object.values(variation.primary ?? {})[0]?.config?.label ?? ''
      const editor = page.locator('.editor')
      await expect(editor).toContainText(firstLabel.split(' (')[0]!)
      await expect(editor).not.toContainText('Editor error')
      expect(errors.filter((e) => /hydration/i.test(e))).toEqual([])
    })
  }
}
