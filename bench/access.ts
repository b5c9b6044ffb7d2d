// `npm run bench:access -- [--origins label=URL,…]`: what a visitor meets at the showcase's viewer
// (WCAG 2.2 AA beyond what axe sees, #60), for each site named (default
// `after=http://127.0.0.1:3000`; `before=…,after=…` measures two builds side by side):
//
// - **Scroll past it.** A phone (412 × 915, touch): a 240 px upward swipe through CDP's
//   `Input.dispatchTouchEvent` starting on the live viewer and on its heading; a 120 px sideways
//   drag on it. A desktop (1000 × 900): a 300 px wheel turn (Playwright's, through the browser's
//   input) over the viewer and over its heading; then Ctrl with the wheel over it. The page's
//   scroll for each, and the camera's turn or zoom (the debug hook's orbit).
// - **A button for every view.** With `?debug3d=motion` (the software renderer plays motion, as a
//   GPU would): the share of the viewer's stage that changes for one press of each view button,
//   and of each 3D section's stage over 1.5 s playing and paused (its pause button pressed).
// - **Heard.** A virtual screen reader (@guidepup/virtual-screen-reader) over the viewer's section
//   and, on an emulated WebXR phone (iwer), over the page: what it hears for the model live, its
//   failure (a 404), a reset, a finish, AR refused and AR started.
//
// Writes bench/access.json and prints a table per measure.
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium, type Browser, type CDPSession, type Locator, type Page } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { documentFile, urlOf } from '../tests/e2e/support/content'
import { emulateArPhone } from '../tests/e2e/support/webxr'
import { screenReaderScript } from '../tests/e2e/support/screen-reader'
import { originsOf } from './lib/origins'
import { runBenchmark } from './lib/chromium.mjs'
import { changedPercent as changed } from './lib/pixels'

const { values } = parseArgs({
  options: {
    origins: { type: 'string', default: 'after=http://127.0.0.1:3000' },
    out: { type: 'string', default: 'bench/access.json' },
  },
})
const ORIGINS = originsOf(values.origins!)
const SHOWCASE = urlOf(documentFile('page', 'showcase', 'en-us'))!
const VIEWER = '.slice-model-viewer [data-3d-state]'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36'

type Orbit = { azimuth: number; polar: number; distance: number }
const orbit = (page: Page): Promise<Orbit | null> =>
  page.evaluate(
    () =>
      Object.values(
        (window as unknown as { __facet3d?: { orbits?: Record<string, Orbit> } }).__facet3d
          ?.orbits ?? {},
      )[0] ?? null,
  )
const scrollY = (page: Page) => page.evaluate(() => window.scrollY)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Where the page's scroll comes to rest (a fling's end). */
async function settled(page: Page): Promise<number> {
  let last = await scrollY(page)
  for (let i = 0; i < 40; i++) {
    await pause(100)
    const now = await scrollY(page)
    if (now === last) return now
    last = now
  }
  return last
}

async function centre(locator: Locator) {
  const box = (await locator.boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** Opens the showcase, engages (a 1 px scroll), and waits for the viewer to be live. */
async function openViewer(page: Page, origin: string, flags = '') {
  await page.goto(`${origin}${SHOWCASE}?debug3d${flags ? `=${flags}` : ''}`)
  await page.evaluate(() => window.scrollBy(0, 1))
  await page.locator(`${VIEWER} [data-3d-stage]`).scrollIntoViewIfNeeded()
  await page.waitForSelector(`${VIEWER}[data-3d-state="live"]`, { timeout: 60_000 })
  await pause(800)
}

const centreStage = (page: Page) =>
  page
    .locator(`${VIEWER} [data-3d-stage]`)
    .evaluate((stage) => stage.scrollIntoView({ block: 'center' }))

/** A one-finger move through CDP's touch events, a step every 16 ms, as a phone's screen sends. */
async function swipe(cdp: CDPSession, from: { x: number; y: number }, dx: number, dy: number) {
  const steps = 15
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
  for (let i = 1; i <= steps; i++) {
    await pause(16)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + (dx * i) / steps, y: from.y + (dy * i) / steps }],
    })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

type Movement = { scrollPx: number; turnRad: number | null; zoom: number | null }

async function movement(page: Page, act: () => Promise<void>): Promise<Movement> {
  await centreStage(page)
  const y0 = await settled(page)
  const o0 = await orbit(page)
  await act()
  const y1 = await settled(page)
  await pause(200)
  const o1 = await orbit(page)
  return {
    scrollPx: Math.round(y1 - y0),
    turnRad: o0 && o1 ? Math.round(Math.abs(o1.azimuth - o0.azimuth) * 1000) / 1000 : null,
    zoom: o0 && o1 ? Math.round((o1.distance / o0.distance) * 1000) / 1000 : null,
  }
}

async function touchAndWheel(browser: Browser, origin: string) {
  const phone = await browser.newContext({
    viewport: { width: 412, height: 915 },
    hasTouch: true,
    isMobile: true,
  })
  const page = await phone.newPage()
  await openViewer(page, origin)
  const cdp = await phone.newCDPSession(page)
  const stage = page.locator(`${VIEWER} [data-3d-stage]`)
  const heading = page.locator('.slice-model-viewer h2').first()
  const touch = {
    'swipe up, on the viewer': await movement(page, async () =>
      swipe(cdp, await centre(stage), 0, -240),
    ),
    'swipe up, off it': await movement(page, async () =>
      swipe(cdp, await centre(heading), 0, -240),
    ),
    'drag sideways, on the viewer': await movement(page, async () =>
      swipe(cdp, await centre(stage), -120, 0),
    ),
  }
  await phone.close()
  const desktop = await browser.newContext({ viewport: { width: 1000, height: 900 } })
  const page2 = await desktop.newPage()
  await openViewer(page2, origin)
  const wheelAt = (target: Locator, ctrl = false) =>
    movement(page2, async () => {
      const at = await centre(target)
      await page2.mouse.move(at.x, at.y)
      if (ctrl) await page2.keyboard.down('Control')
      await page2.mouse.wheel(0, ctrl ? -300 : 300)
      if (ctrl) await page2.keyboard.up('Control')
    })
  const stage2 = page2.locator(`${VIEWER} [data-3d-stage]`)
  const heading2 = page2.locator('.slice-model-viewer h2').first()
  const wheel = {
    'wheel, on the viewer': await wheelAt(stage2),
    'wheel, off it': await wheelAt(heading2),
    'Ctrl + wheel, on the viewer': await wheelAt(stage2, true),
  }
  const hint = await page2
    .locator(`${VIEWER} [data-3d-zoom-hint]`)
    .count()
    .then((n) => (n ? 'shown' : 'none'))
  await desktop.close()
  return { touch, wheel, hint }
}

async function buttonsAndPause(browser: Browser, origin: string) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
  const page = await context.newPage()
  await openViewer(page, origin, 'motion')
  const shot = (selector: string) => page.locator(selector).screenshot({ animations: 'allow' })
  const overTime = async (selector: string) => {
    await page.locator(selector).scrollIntoViewIfNeeded()
    await pause(300)
    const a = await shot(selector)
    await pause(1500)
    return changed(a, await shot(selector))
  }
  const sections = {
    // The first hero's (the showcase has two, the shape's and the model's).
    hero: '.slice-hero [data-3d-state] [data-3d-stage] >> nth=0',
    viewer: `${VIEWER} [data-3d-stage]`,
  }
  const playing: Record<string, number> = {}
  for (const [name, selector] of Object.entries(sections)) playing[name] = await overTime(selector)
  // The pause, where there is one: one press stops every 3D on the page.
  const pauseButton = page.locator('[data-3d-motion="playing"]:visible').first()
  const hasPause = (await pauseButton.count()) > 0
  const paused: Record<string, number | null> = {}
  if (hasPause) {
    await pauseButton.scrollIntoViewIfNeeded()
    await pauseButton.click()
    await pause(300)
  }
  for (const [name, selector] of Object.entries(sections))
    paused[name] = hasPause ? await overTime(selector) : null
  // One press of each view button, on a still stage (paused; else the stage moves anyway).
  const views: Record<string, number | null> = {}
  for (const step of ['turnLeft', 'turnRight', 'tiltUp', 'tiltDown', 'zoomIn', 'zoomOut']) {
    const button = page.locator(`${VIEWER} [data-3d-view="${step}"]`)
    if (!(await button.count()) || !hasPause) {
      views[step] = null
      continue
    }
    await page.locator(sections.viewer).scrollIntoViewIfNeeded()
    const before = await shot(sections.viewer)
    await button.click()
    await pause(400)
    views[step] = await changed(before, await shot(sections.viewer))
  }
  await context.close()
  return { playing, paused, views }
}

type Reader = {
  start: (o: { container: Element }) => Promise<void>
  spokenPhraseLog: () => Promise<string[]>
}
const startReader = async (page: Page, selector: string) => {
  await page.evaluate(`(() => {${await screenReaderScript()}})()`)
  await page.evaluate(
    (selector) =>
      (window as unknown as { __screenReader: Reader }).__screenReader.start({
        container: document.querySelector(selector)!,
      }),
    selector,
  )
}
const liveHeard = async (page: Page) =>
  (
    await page.evaluate(() =>
      (window as unknown as { __screenReader: Reader }).__screenReader.spokenPhraseLog(),
    )
  )
    .filter((line) => /^(polite|assertive): ./.test(line))
    .map((line) => line.replace(/^(polite|assertive): /, '').trim())

async function heard(browser: Browser, origin: string) {
  const out: Record<string, string[]> = {}
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
  let page = await context.newPage()
  await page.goto(`${origin}${SHOWCASE}`)
  await startReader(page, '.slice-model-viewer')
  await page.evaluate(() => window.scrollBy(0, 1))
  await page.locator(`${VIEWER} [data-3d-stage]`).scrollIntoViewIfNeeded()
  await page.waitForSelector(`${VIEWER}[data-3d-state="live"]`, { timeout: 60_000 })
  await pause(800)
  let seen = 0
  const since = async () => {
    const all = await liveHeard(page)
    const fresh = all.slice(seen)
    seen = all.length
    return fresh
  }
  out['the model live'] = await since()
  const reset = page.locator(`${VIEWER} button`, {
    hasText: documentFile('page', 'showcase', 'en-us').data.slices!.find(
      (s) => s.slice_type === 'model_viewer',
    )!.primary.reset_label as string,
  })
  await reset.first().click()
  await pause(500)
  out['the view reset'] = await since()
  await page.locator(`${VIEWER} [data-variant="Red"]`).click()
  await pause(1500)
  out['a finish chosen'] = await since()
  await page.route(
    (url) => url.pathname.endsWith('/models/lamp.glb'),
    (route) => route.fulfill({ status: 404 }),
  )
  page = await context.newPage()
  await page.route(
    (url) => url.pathname.endsWith('/models/lamp.glb'),
    (route) => route.fulfill({ status: 404 }),
  )
  await page.goto(`${origin}${SHOWCASE}`)
  seen = 0
  await startReader(page, '.slice-model-viewer')
  await page.evaluate(() => window.scrollBy(0, 1))
  await page.locator(`${VIEWER} [data-3d-stage]`).scrollIntoViewIfNeeded()
  await page.waitForSelector(`${VIEWER}[data-3d-state="error"]`, { timeout: 60_000 })
  await pause(500)
  out['the model failed'] = await since()
  await context.close()

  // AR, on an emulated WebXR phone: a start the device refuses, then one it grants.
  const phone = await browser.newContext({
    viewport: { width: 412, height: 915 },
    hasTouch: true,
    isMobile: true,
    userAgent: ANDROID,
  })
  await emulateArPhone(phone, ANDROID)
  page = await phone.newPage()
  await page.goto(`${origin}${SHOWCASE}`)
  await page.evaluate(() => window.scrollBy(0, 1))
  const button = page.locator('button[data-ar-link]')
  await button.waitFor({ timeout: 30_000 })
  seen = 0
  await startReader(page, 'body')
  await page.evaluate(() => {
    const xr = navigator.xr!
    const request = xr.requestSession.bind(xr)
    xr.requestSession = () => {
      xr.requestSession = request
      return Promise.reject(new DOMException('No user activation', 'NotAllowedError'))
    }
  })
  await button.click()
  await pause(1500)
  out['AR refused'] = await since()
  await button.click()
  await page.locator('[data-ar-session]').waitFor({ timeout: 30_000 })
  await pause(3000)
  out['AR started'] = await since()
  await phone.close()
  return out
}

async function main() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const results: Record<string, unknown> = {}
  try {
    for (const { label, url } of ORIGINS) {
      const scroll = await touchAndWheel(browser, url)
      const motion = await buttonsAndPause(browser, url)
      const phrases = await heard(browser, url)
      results[label] = { origin: url, scroll, motion, phrases }
      console.log(label, JSON.stringify(results[label], null, 1))
    }
  } finally {
    await browser.close()
  }
  const report = {
    when: new Date().toISOString(),
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
    sites: results,
  }
  writeFileSync(values.out!, JSON.stringify(report, null, 2) + '\n')
  console.log(`load average: ${report.load.join(' ')}`)
}

runBenchmark(main)
