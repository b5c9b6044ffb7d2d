// A viewer nobody gets stuck in (WCAG 2.2 AA as visitors meet it, beyond what axe sees): the page
// scrolls past it under a thumb and a wheel, every view has a button, motion can be paused, and a
// screen reader hears every change. Real input through the browser's own pipeline (CDP touch
// events, Playwright's wheel), never events made in the page; a virtual screen reader walking the
// page as a reader's browse mode does. On both render paths; one page for many cases.
import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test'
import {
  changedShare,
  frames,
  pixels,
  RENDER_PATHS,
  showcase,
  slot,
  url3d,
  waitLive,
  type RenderPath,
} from './three-helpers'
import { announced, forget, readOn, startScreenReader } from './support/screen-reader'
import { documentFile, showcaseHotspots } from './support/content'
import { slotWords } from '../../src/three/viewer/words'
import { settledPicture } from '../fixtures/settle'

const PROCEDURAL = 0
const VIEWER = 2
const content = showcase('en-us')
const viewer = content.viewer
const words = slotWords('en-us')
/** The view buttons, in their order under the stage, with the slice's names for them. */
const VIEW_BUTTONS = [
  ['turnLeft', viewer.turn_left_label],
  ['turnRight', viewer.turn_right_label],
  ['tiltUp', viewer.tilt_up_label],
  ['tiltDown', viewer.tilt_down_label],
  ['zoomIn', viewer.zoom_in_label],
  ['zoomOut', viewer.zoom_out_label],
] as const

type Orbit = { azimuth: number; polar: number; distance: number }
/** The viewer's camera orbit, as the renderer reports it (`?debug3d`). */
const orbitNow = (page: Page): Promise<Orbit> =>
  page.evaluate(
    () =>
      Object.values(
        (window as unknown as { __facet3d: { orbits: Record<string, Orbit> } }).__facet3d.orbits,
      )[0]!,
  )
const scrollY = (page: Page) => page.evaluate(() => window.scrollY)

/**
 * Opens `url` and engages as a visitor does: a small scroll, which the page hears as it hydrates
 * or finds done when it has (`engagedAlready`), so the 3D starts without its 5 s quiet wait.
 */
async function visit(page: Page, url: string) {
  await page.goto(url)
  await engage(page)
}
const engage = (page: Page) => page.evaluate(() => window.scrollBy(0, 1))

/** A one-finger swipe from `from` by `by`, as the phone's screen sends it (CDP touch events). */
async function swipe(
  cdp: CDPSession,
  from: { x: number; y: number },
  by: { x: number; y: number },
  steps = 12,
) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
  for (let i = 1; i <= steps; i++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + (by.x * i) / steps, y: from.y + (by.y * i) / steps }],
    })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

/** Two fingers moving apart from `at`, as a pinch that zooms in. */
async function pinchOut(cdp: CDPSession, at: { x: number; y: number }, steps = 10) {
  const points = (spread: number) => [
    { x: at.x - spread, y: at.y, id: 1 },
    { x: at.x + spread, y: at.y, id: 2 },
  ]
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(30) })
  for (let i = 1; i <= steps; i++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: points(30 + (90 * i) / steps),
    })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

/** Waits until the page's scroll has come to rest (a swipe's fling), and returns where. */
async function settledScroll(page: Page): Promise<number> {
  let last = -1
  await expect
    .poll(async () => {
      await frames(page)
      const now = await scrollY(page)
      const still = now === last
      last = now
      return still
    })
    .toBe(true)
  return last
}

/** The centre of an element's box on the screen. */
async function centre(locator: Locator) {
  const box = (await locator.boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** Puts the viewer's stage in the middle of the screen. */
const centreStage = (page: Page) =>
  slot(page, VIEWER).stage.evaluate((stage) => stage.scrollIntoView({ block: 'center' }))

for (const path of RENDER_PATHS) {
  test.describe(`nobody gets stuck in the viewer (${path} path)`, () => {
    test('on a phone: a vertical swipe on the viewer scrolls the page, a sideways drag turns the model, two fingers zoom it; reduced motion starts paused; at 320 px nothing needs a sideways scroll', async ({
      browser,
    }) => {
      const context = await browser.newContext({
        viewport: { width: 412, height: 915 },
        hasTouch: true,
        isMobile: true,
        reducedMotion: 'reduce',
      })
      const page = await context.newPage()
      // `motion`: the software renderer plays motion as a GPU would; reduced motion still wins.
      await visit(page, url3d('/en-us/showcase', path, 'motion'))
      await waitLive(page, VIEWER)
      const { root, stage } = slot(page, VIEWER)
      // Asked for reduced motion: every 3D that moves starts paused, its button offering play.
      await expect(root.getByRole('button', { name: viewer.play_label })).toBeVisible()
      await expect(root.getByRole('button', { name: viewer.pause_label })).toHaveCount(0)
      await expectStill(stage)

      const cdp = await context.newCDPSession(page)
      await centreStage(page)
      await settledScroll(page)
      // A thumb on the way down the page, on the viewer and off it (its heading): both scroll.
      const scrolls: Record<string, number> = {}
      for (const [where, target] of [
        ['on the viewer', stage],
        ['off it', page.getByRole('heading', { name: viewer.heading })],
      ] as const) {
        await centreStage(page)
        const before = await settledScroll(page)
        const orbit = await orbitNow(page)
        await swipe(cdp, await centre(target), { x: 0, y: -240 })
        scrolls[where] = (await settledScroll(page)) - before
        // The model did not turn under the thumb.
        expect((await orbitNow(page)).azimuth, where).toBeCloseTo(orbit.azimuth, 5)
      }
      expect(scrolls['on the viewer'], JSON.stringify(scrolls)).toBeGreaterThan(150)
      expect(scrolls['off it'], JSON.stringify(scrolls)).toBeGreaterThan(150)

      // Sideways, the drag is the model's: it turns, and the page stays.
      await centreStage(page)
      const still = await settledScroll(page)
      const before = await orbitNow(page)
      await swipe(cdp, await centre(stage), { x: -120, y: 0 })
      await frames(page)
      expect(Math.abs((await orbitNow(page)).azimuth - before.azimuth)).toBeGreaterThan(0.5)
      expect(await settledScroll(page)).toBe(still)
      // Two fingers apart zoom in: the camera comes closer; the page does not zoom or move.
      const far = (await orbitNow(page)).distance
      await pinchOut(cdp, await centre(stage))
      await frames(page)
      expect((await orbitNow(page)).distance).toBeLessThan(far * 0.9)
      expect(await settledScroll(page)).toBe(still)

      // Reflow (1.4.10): at 320 CSS px the page needs no sideways scroll, and every control of
      // the viewer is on the screen, at least 24 × 24 (2.5.8).
      await page.setViewportSize({ width: 320, height: 640 })
      await centreStage(page)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      )
      const boxes = await root.locator('button:visible').evaluateAll((buttons) =>
        buttons.map((b) => {
          const r = b.getBoundingClientRect()
          return {
            name: b.getAttribute('aria-label') ?? b.textContent,
            left: r.left,
            right: r.right,
            width: r.width,
            height: r.height,
          }
        }),
      )
      expect(boxes.length).toBeGreaterThanOrEqual(VIEW_BUTTONS.length + 2)
      for (const box of boxes) {
        expect(box.left, box.name!).toBeGreaterThanOrEqual(0)
        expect(box.right, box.name!).toBeLessThanOrEqual(320)
        expect(box.width, box.name!).toBeGreaterThanOrEqual(24)
        expect(box.height, box.name!).toBeGreaterThanOrEqual(24)
      }
      await context.close()
    })

    test('on a desktop, with motion played: pause stops every 3D and holds across pages; each view button changes the view, reset is heard; a plain wheel scrolls the page and says how to zoom, Ctrl with it zooms; no focused control is covered', async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
      const page = await context.newPage()
      await visit(page, url3d('/en-us/showcase', path, 'motion'))
      await waitLive(page, PROCEDURAL)
      const hero = slot(page, PROCEDURAL)
      // The hero floats: two captures differ.
      let last = await pixels(hero.stage)
      await expect
        .poll(async () => changedShare(last, (last = await pixels(hero.stage))))
        .toBeGreaterThan(0)
      // Its section's pause: then its stage holds still.
      const pause = hero.root.getByRole('button', { name: words.pause })
      await expect(pause).toBeVisible()
      await pause.click()
      await expect(hero.root.getByRole('button', { name: words.play })).toBeFocused()
      await expectStill(hero.stage)

      // The viewer was paused with it (one choice for the visit): its lamp no longer turns.
      await waitLive(page, VIEWER)
      const { root, stage } = slot(page, VIEWER)
      await expect(root.getByRole('button', { name: viewer.play_label })).toBeVisible()
      await expectStill(stage)

      // Each view button, one click: the view changes (the model turned, tilted or zoomed).
      const first = await pixels(stage)
      let before = first
      for (const [step, name] of VIEW_BUTTONS) {
        const button = root.getByRole('button', { name, exact: true })
        await expect(button, step).toHaveAttribute('data-3d-view', step)
        await button.click()
        let after = before
        await expect
          .poll(async () => changedShare(before, (after = await pixels(stage))), { message: step })
          .toBeGreaterThan(0.002)
        before = after
      }
      // With a view button focused, the arrow keys turn the model too; a mouse drag does.
      const orbit = await orbitNow(page)
      await root.getByRole('button', { name: viewer.turn_left_label }).focus()
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      await expect
        .poll(async () => (await orbitNow(page)).azimuth)
        .toBeCloseTo(orbit.azimuth - Math.PI / 6, 3)
      const from = await centre(stage)
      await page.mouse.move(from.x, from.y)
      await page.mouse.down()
      await page.mouse.move(from.x + 120, from.y, { steps: 6 })
      await page.mouse.up()
      await expect
        .poll(async () => (await orbitNow(page)).azimuth)
        .not.toBeCloseTo(orbit.azimuth - Math.PI / 6, 2)
      // Reset: the first view again, and the live region says so.
      await root.getByRole('button', { name: viewer.reset_label }).click()
      await expect.poll(async () => changedShare(first, await pixels(stage))).toBeLessThan(0.002)
      await expect(root.locator('[data-3d-status]')).toHaveText(viewer.reset_message)

      // Targets (2.5.8): every button of the viewer, at least 24 × 24 CSS px.
      for (const size of await root
        .locator('button:visible')
        .evaluateAll((all) => all.map((b) => [b.clientWidth, b.clientHeight])))
        expect(Math.min(...size)).toBeGreaterThanOrEqual(24)

      // Focus Not Obscured (2.4.11): a hotspot's popover lies over the stage's top; the focus
      // moved on from it closes it, and then every control of the figure shows where it is.
      await root.locator('[data-hotspot="0"]').click()
      const popover = root.getByRole('dialog')
      await expect(popover).toBeFocused()
      await page.keyboard.press('Tab')
      await expect(popover).toHaveCount(0)
      const hidden = await page.locator('.slice-model-viewer figure').evaluate(async (figure) => {
        const covered: string[] = []
        const controls = figure.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')
        for (const control of controls) {
          if (!control.checkVisibility({ visibilityProperty: true })) continue
          control.focus()
          await new Promise((resolve) => requestAnimationFrame(resolve))
          const box = control.getBoundingClientRect()
          let shows = false
          for (const fx of [0.1, 0.5, 0.9])
            for (const fy of [0.1, 0.5, 0.9]) {
              const hit = document.elementFromPoint(
                box.left + box.width * fx,
                box.top + box.height * fy,
              )
              shows ||= !!hit && (hit === control || control.contains(hit))
            }
          if (!shows) covered.push(control.getAttribute('aria-label') ?? control.textContent ?? '')
        }
        return { covered, count: controls.length }
      })
      expect(hidden.covered).toEqual([])
      expect(hidden.count).toBeGreaterThanOrEqual(VIEW_BUTTONS.length + 5)

      // A plain wheel over the viewer scrolls the page, as it does off it, and shows the slice's
      // hint; Ctrl with the wheel zooms the model and leaves the page where it is.
      const hint = root.locator('[data-3d-zoom-hint]')
      await expect(hint).toBeHidden()
      const wheel: Record<string, number> = {}
      for (const [where, target] of [
        ['on the viewer', stage],
        ['off it', page.getByRole('heading', { name: viewer.heading })],
      ] as const) {
        await centreStage(page)
        const before = await settledScroll(page)
        const at = await centre(target)
        await page.mouse.move(at.x, at.y)
        await page.mouse.wheel(0, 300)
        wheel[where] = (await settledScroll(page)) - before
      }
      expect(wheel).toEqual({ 'on the viewer': 300, 'off it': 300 })
      await centreStage(page)
      const at = await centre(stage)
      await page.mouse.move(at.x, at.y)
      await page.mouse.wheel(0, 100)
      await expect(hint).toBeVisible()
      await expect(hint).toHaveText(viewer.zoom_hint)
      const resting = await settledScroll(page)
      const near = (await orbitNow(page)).distance
      await page.keyboard.down('Control')
      await page.mouse.wheel(0, -300)
      await page.keyboard.up('Control')
      await frames(page)
      expect((await orbitNow(page)).distance).toBeLessThan(near * 0.95)
      expect(await settledScroll(page)).toBe(resting)
      // Zooming, the hint has done its work: it goes.
      await expect(hint).toBeHidden()

      // The pause holds on the next page: the home page's hero starts still; play moves it.
      await visit(page, url3d('/en-us', path, 'motion'))
      await waitLive(page, 0)
      const home = slot(page, 0)
      const play = home.root.getByRole('button', { name: words.play })
      await expect(play).toBeVisible()
      await expectStill(home.stage)
      await play.click()
      last = await pixels(home.stage)
      await expect
        .poll(async () => changedShare(last, (last = await pixels(home.stage))))
        .toBeGreaterThan(0)
      await context.close()
    })
  })
}

/**
 * The stage holds still: the same pixels in two pictures in a row and 600 ms later, in which a
 * moving scene (20 frames a second on the low tier, `?debug3d=motion`) draws a dozen frames. The
 * worker's last frame from before the pause may land between the first two (`settledPicture`).
 */
async function expectStill(stage: Locator) {
  await settledPicture(
    () => pixels(stage),
    (a, b) => changedShare(a, b) === 0,
    { quietMs: 600, timeoutMs: 5_000 },
  )
}

test.describe('what a screen reader hears', () => {
  test("the showcase's viewer: an image named by its description, each control a named button, no pause where nothing moves; live, reset, a finish and a failure are heard", async ({
    page,
  }) => {
    await page.goto(url3d('/en-us/showcase', 'worker' satisfies RenderPath))
    // Listening before the 3D arrives, over the viewer's section; then the visitor engages.
    await startScreenReader(page, '.slice-model-viewer')
    await engage(page)
    await waitLive(page, VIEWER)
    await expect.poll(() => announced(page)).toEqual([viewer.live_message])
    // Browse mode through the figure, as a visitor's down arrow moves.
    const read = await readOn(page, 'end of figure')
    expect(read).toContain(`image, ${viewer.description}, ${viewer.controls_hint}`)
    for (const [label] of showcaseHotspots().items)
      expect(read.some((line) => line.startsWith(`button, ${label}, `))).toBe(true)
    expect(read).toContain(`group, ${viewer.variants_label}`)
    for (const name of [viewer.reset_label, ...VIEW_BUTTONS.map(([, name]) => name)])
      expect(read).toContain(`button, ${name}`)
    // The lamp turns by itself, but this software renderer holds it still: no pause to offer.
    expect(read.filter((line) => line.includes(viewer.pause_label))).toEqual([])
    // The reset, twice (heard twice), and a finish, once it is on screen.
    await forget(page)
    const { root } = slot(page, VIEWER)
    await root.getByRole('button', { name: viewer.reset_label }).click()
    await expect.poll(() => announced(page)).toEqual([viewer.reset_message])
    await root.getByRole('button', { name: viewer.reset_label }).click()
    await expect.poll(() => announced(page)).toEqual([viewer.reset_message, viewer.reset_message])
    await forget(page)
    const red = (viewer.variant_labels as unknown as { name: string; label: string }[]).find(
      (row) => row.name === 'Red',
    )!
    await root.getByRole('button', { name: red.label }).click()
    await expect.poll(() => announced(page)).toEqual([`${viewer.variants_label}: ${red.label}`])

    // A model that cannot load: the slice's message, shown and heard.
    await page.route(
      (url) => url.pathname.endsWith('/models/lamp.glb'),
      (route) => route.fulfill({ status: 404 }),
    )
    await page.goto(url3d('/en-us/showcase', 'worker'))
    await startScreenReader(page, '.slice-model-viewer')
    await slot(page, VIEWER).stage.scrollIntoViewIfNeeded()
    await expect(slot(page, VIEWER).root).toHaveAttribute('data-3d-state', 'error', {
      timeout: 30_000,
    })
    await expect.poll(() => announced(page)).toEqual([viewer.error_message])
    // Shown to the eye too (a copy the reader skips: it has the region's).
    const shown = slot(page, VIEWER).root.locator('p[aria-hidden="true"]')
    await expect(shown).toHaveText(viewer.error_message)
    await expect(shown).toBeVisible()
  })

  test('the contact form: each field by its label, and its errors heard as they appear', async ({
    page,
  }) => {
    const form = page.locator('.slice-contact-form form')
    const contact = documentFile('page', 'contact', 'en-us').data.slices!.find(
      (slice) => slice.slice_type === 'contact_form',
    )!.primary as Record<string, string>
    await page.goto('/en-us/contact')
    const submit = form.getByRole('button', { name: contact.submit_label })
    // Enabled once hydrated.
    await expect(submit).toBeEnabled()
    await startScreenReader(page, '.slice-contact-form')
    await submit.click()
    // Four empty fields: each says so, heard as it appears.
    await expect.poll(() => announced(page)).toEqual(Array(4).fill(contact.error_required))
    await forget(page)
    await form.getByLabel(contact.email_label).fill('not an address')
    await form.getByLabel(contact.email_label).blur()
    await expect.poll(() => announced(page)).toEqual([contact.error_email])
    // Read in browse mode, a field is its label, its value, its error and its state.
    const read = await readOn(page, `button, ${contact.submit_label}`)
    expect(read).toContain(
      `textbox, ${contact.email_label}, not an address, ${contact.error_email}, invalid, required`,
    )
  })
})
