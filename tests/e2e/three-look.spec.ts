// Art direction from the CMS (#61): each setting of a model's light, shadow and camera changes the
// drawn stage from one end of its range to the other, on both render paths; the showcase's own
// look (its slice's fields) is drawn, and the same on both paths; the ground shadow costs no pass
// in a frame where nothing but the camera moves; a Prismic preview draws a draft's look before it
// is published. Settings are applied through `?debug3d`'s
// respec, as a preview's new content reaches the renderer (tests/e2e/support/look.ts); the path
// from the slice's fields to the renderer is tests/unit/three-look.test.ts's.
import * as prismic from '@prismicio/client'
import { expect, test, type Page } from '@playwright/test'
import { documentFile, releaseDocumentFile } from './support/content'
import {
  changedShare,
  pixels,
  RENDER_PATHS,
  slot,
  url3d,
  waitLive,
  type Pixels,
} from './three-helpers'
import {
  applyLookInPage,
  LOOK_CHANGE_MIN,
  lookSettings,
  merged,
  SAMPLE_HDR,
  type LookPatch,
  type LookSetting,
} from './support/look'
import { modelMask, ssim } from './support/ssim'
import { DEFAULT_CAMERA, DEFAULT_LOOK } from '../../rules/look'

const VIEWER = 2
const STAGE = '.slice-model-viewer [data-3d-stage]'

type Hook = { frames: number; calls: number }
const hook = (page: Page) =>
  page.evaluate(() => {
    const { frames, calls } = (window as unknown as { __facet3d: Hook }).__facet3d
    return { frames, calls }
  })

/** The URL the showcase's page gives the sample HDR (its media URL, with its version). */
async function sampleHdr(page: Page): Promise<string> {
  const html = await (await page.request.get('/en-us/showcase')).text()
  const found = new RegExp(`(/[^"\\\\]*${SAMPLE_HDR.replace('.', '\\.')}[^"\\\\]*)`).exec(html)
  if (!found) throw new Error(`the showcase names no ${SAMPLE_HDR}`)
  return found[1]!
}

/**
 * Hides the hotspots' buttons and the finishes' row over the stage: the page's own buttons, not
 * the drawing, and a hotspot fades as the model turns it away, after the frame.
 */
const hideOverlays = (page: Page) =>
  page.addStyleTag({ content: '[data-3d-overlay] { visibility: hidden !important }' })

/** Presses one of the viewer's buttons, and waits for the frame that answers it. */
async function press(page: Page, button: string) {
  const { frames } = await hook(page)
  await slot(page, VIEWER).root.locator(`[data-3d-view="${button}"]`).click()
  await expect
    .poll(async () => (await hook(page)).frames, { intervals: [20] })
    .toBeGreaterThan(frames)
}

/** One end of a setting, as the stage shows it after the setting's action. */
async function drawEnd(page: Page, setting: LookSetting, patch: LookPatch): Promise<Pixels> {
  await page.evaluate(applyLookInPage, { selector: STAGE, patch: merged(setting.base, patch) })
  await press(page, 'reset')
  const action = setting.action
  if (action.kind === 'press')
    for (let i = 0; i < action.times; i++) await press(page, action.button)
  if (action.kind === 'turn-then-wait') await press(page, 'turnLeft')
  return pixels(slot(page, VIEWER).stage)
}

/** The share of the stage that changes over `ms` (motion playing). */
async function changeOver(page: Page, from: Pixels, ms: number): Promise<number> {
  await page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), ms)
  return changedShare(from, await pixels(slot(page, VIEWER).stage))
}

// A small stage: software rendering pays per pixel, and the settings show at any size.
test.use({ viewport: { width: 560, height: 640 } })

for (const path of RENDER_PATHS) {
  test(`each art direction setting changes the drawn stage from one end of its range to the other; a turn costs the shadow no pass (${path} path)`, async ({
    page,
  }) => {
    test.setTimeout(120_000)
    // `motion`: auto-rotate plays on the software renderer, for the settings that act over time;
    // the still ones are measured paused.
    await page.goto(url3d('/en-us/showcase', path, 'motion'))
    await waitLive(page, VIEWER)
    await hideOverlays(page)
    const { root } = slot(page, VIEWER)
    // The viewer alone on the screen: the heroes above it move by themselves too (`motion`), and
    // any scene that moves sets the canvas's resolution for all.
    await root.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 8))
    await root.locator('[data-3d-motion="playing"]').click()
    const seen: string[] = []
    for (const setting of lookSettings(await sampleHdr(page)).filter(
      // The studio presets beside each other: the bench's (they are drawn as the others are).
      (setting) => setting.name !== 'environment: studio presets',
    )) {
      const moving = setting.action.kind === 'wait' || setting.action.kind === 'turn-then-wait'
      const motion = root.locator(`[data-3d-motion="${moving ? 'paused' : 'playing'}"]`)
      if (await motion.count()) await motion.click()
      const [a, b] = setting.ends
      const from = await drawEnd(page, setting, a.patch)
      if (!moving) {
        const to = await drawEnd(page, setting, b.patch)
        const share = changedShare(from, to)
        seen.push(`${setting.name}: ${(share * 100).toFixed(2)} %`)
        expect(share, `${setting.name}: ${a.label} → ${b.label}`).toBeGreaterThan(LOOK_CHANGE_MIN)
        continue
      }
      // Over time: the first end holds still, the other moves.
      const ms = (setting.action as { ms: number }).ms
      expect(await changeOver(page, from, ms), `${setting.name}: ${a.label}`).toBe(0)
      const still = await drawEnd(page, setting, b.patch)
      const share = await changeOver(page, still, ms)
      seen.push(`${setting.name}: over ${ms} ms, 0 % → ${(share * 100).toFixed(2)} %`)
      expect(share, `${setting.name}: ${b.label}`).toBeGreaterThan(LOOK_CHANGE_MIN)
    }
    test.info().annotations.push({ type: 'changed', description: seen.join('; ') })

    // The ground shadow is drawn once, not in each frame: a frame that only turns the camera
    // draws one thing more with the shadow than without it, the shadow's plane (its own pass,
    // the model seen from below and blurred, would be several).
    await root.locator('[data-3d-motion="playing"]').click()
    const calls: number[] = []
    for (const intensity of [0, 1]) {
      await page.evaluate(applyLookInPage, {
        selector: STAGE,
        patch: { look: { shadow: { intensity, softness: 0.5 } } },
      })
      await press(page, 'turnLeft')
      await press(page, 'turnLeft')
      calls.push((await hook(page)).calls)
    }
    expect(calls[1]! - calls[0]!, `draw calls of a turn's frame: ${calls.join(' → ')}`).toBe(1)
  })
}

test("the showcase's own look is drawn, the same on both paths", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 560, height: 640 } })
  const shots: Record<string, { own: Pixels; plain: Pixels; bare: Pixels }> = {}
  for (const path of RENDER_PATHS) {
    const page = await context.newPage()
    await page.goto(url3d('/en-us/showcase', path))
    await waitLive(page, VIEWER)
    await hideOverlays(page)
    const stage = slot(page, VIEWER).stage
    await press(page, 'reset')
    const own = await pixels(stage)
    // The same lamp in the site's defaults: another light, shadow, lens and starting view.
    await page.evaluate(applyLookInPage, {
      selector: STAGE,
      patch: { look: DEFAULT_LOOK, camera: DEFAULT_CAMERA },
    })
    await press(page, 'reset')
    const plain = await pixels(stage)
    const canvases = page.locator('canvas')
    await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
    const bare = await pixels(stage)
    shots[path] = { own, plain, bare }
    expect(
      changedShare(own, plain),
      `${path}: the slice's look against the defaults`,
    ).toBeGreaterThan(0.02)
    await page.close()
  }
  await context.close()
  const { worker, main } = shots as Record<'worker' | 'main', (typeof shots)[string]>
  const mask = modelMask(worker.bare, [worker.own, main.own, worker.plain])
  const score = ssim(worker.own, main.own, mask)
  const apart = ssim(worker.own, worker.plain, mask)
  test.info().annotations.push({
    type: 'SSIM',
    description: `worker against main ${score.toFixed(4)}; the look against the defaults ${apart.toFixed(4)}`,
  })
  expect(score, 'SSIM of the two paths under the showcase look').toBeGreaterThanOrEqual(0.95)
  expect(apart, 'the bound tells the looks apart').toBeLessThan(0.95)
})

// An editor's change previewed before it is published: the winter-launch release holds a draft of
// the showcase whose viewer has another light (the outdoor preset, not the studio HDR), a lower
// exposure and a lighter shadow. Its preview link starts Prismic's preview session; the viewer
// draws the draft's look; once the session ends, the published look again.
test("a Prismic preview draws a draft's light and shadow before they are published", async ({
  page,
  baseURL,
}) => {
  const published = documentFile('page', 'showcase', 'en-us')
  const draft = releaseDocumentFile('winter-launch', 'page', 'showcase', 'en-us')
  const fields = (file: typeof published) =>
    file.data.slices!.find((s) => s.slice_type === 'model_viewer')!.primary
  expect(fields(draft).exposure).not.toBe(fields(published).exposure)
  const { id } = await prismic
    .createClient(`${baseURL}/local/prismic/api/v2`)
    .getByUID('page', 'showcase', { lang: 'en-us' })

  const drawn = async () => {
    await page.goto(url3d('/en-us/showcase', 'worker'))
    await waitLive(page, VIEWER)
    await hideOverlays(page)
    await press(page, 'reset')
    return pixels(slot(page, VIEWER).stage)
  }
  const before = await drawn()
  await page.goto(
    `/local/prismic/previews/winter-launch?websitePreviewId=winter-launch&documentId=${id}`,
  )
  await expect(page).toHaveURL(`${baseURL}/en-us/showcase`)
  const previewed = await drawn()
  expect(changedShare(before, previewed), 'the draft against the published look').toBeGreaterThan(
    0.02,
  )
  expect((await page.goto('/api/exit-preview'))?.status()).toBe(200)
  const after = await drawn()
  expect(changedShare(before, after), 'the published look once the preview ends').toBeLessThan(
    LOOK_CHANGE_MIN,
  )
})
