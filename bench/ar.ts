// `npm run bench:ar -- --origins label=URL[,label=URL…] [--runs N]`: "View in your room" (issue
// 42), measured three ways in one run. Writes bench/ar.json.
//
// 1. The USDZ of each model of the test corpus (tests/fixtures/model-corpus.ts), made as the
//    server makes it (the model pipeline's child process, a cache of its own): its bytes, the
//    time to make it cold (nothing cached) and warm (from the cache), or the server's refusal.
// 2. The showcase on a phone before anything is pressed, on each site named (say `before` and
//    `after`, served side by side, visited in turn): the bytes over the wire and the main
//    thread's long tasks from the navigation to 4 s after `load` (before the 3D's quiet-window
//    start), at 4× CPU. What the AR button costs a visitor who never presses it.
// 3. On each site that offers the in-page session (WebXR, emulated by IWER with a scanned room),
//    the time from the press to the session's first XR frame and to its model loaded, at 4× CPU;
//    and the same press on `<model-viewer>` (`ar ar-modes="webxr"`, given the last site's `ar`
//    file of the showcase's lamp, its page loaded and its model shown first, as Facet's viewer is
//    scrolled to and live first). Then 3 s looking at the model and the network idle, and the
//    press: a tap, as on a phone; the first XR frame is the first frame callback of the session
//    that returned, heard the same way on both. With the long tasks from the model shown to the
//    press: what fetching ahead of the press costs.
// Medians of N runs (3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, devices, type Browser } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { tierParams, usdzParams } from '../services/content-api/models/params'
import { createModelVariants } from '../services/content-api/models/variants'
import { AR_MARKS } from '../src/lib/ar'
import { emulateArPhone } from '../tests/e2e/support/webxr'
import { CORPUS, modelCorpus } from '../tests/fixtures/model-corpus'
import { originsOf } from './lib/origins'
import { serveModelViewer } from './lib/model-viewer'
import { CPU, median } from './lib/viewer-live'

const { values } = parseArgs({
  options: {
    origins: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
})
if (!values.origins) {
  console.error(
    'bench:ar: name the sites to measure, e.g. --origins before=http://127.0.0.1:3401,after=http://127.0.0.1:3400 (each a running `npm start`)',
  )
  process.exit(2)
}
const ORIGINS = originsOf(values.origins)
const RUNS = Number(values.runs)
const PHONE = devices['Pixel 7']
const SHOWCASE = '/en-us/showcase'
const QUIET_AFTER_LOAD_MS = 4_000
/** How long the visitor looks at the model shown before pressing for AR. */
const LOOK_MS = 3_000

const ms = (n: number) => Math.round(n)

/** Part 1: each corpus model's USDZ, cold and warm. */
async function usdzFigures() {
  const corpus = await modelCorpus()
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-ar-'))
  const variants = createModelVariants({ cache: { dir, maxBytes: 2 ** 32 } })
  const rows = []
  try {
    // The child process started and warm before any figure (a server has it running).
    const first = corpus[0]!
    await variants.make(tierParams('low'), {
      id: 'warm-up',
      bytes: async () => readFileSync(first.file),
    })
    for (const model of corpus) {
      const bytes = readFileSync(model.file)
      const source = { id: `corpus-${model.name}`, name: model.name, bytes: async () => bytes }
      const start = performance.now()
      try {
        const usdz = await variants.make(usdzParams(), source)
        const cold = performance.now() - start
        const again = performance.now()
        await variants.make(usdzParams(), source)
        const warm = performance.now() - again
        rows.push({
          model: model.name,
          sourceBytes: bytes.length,
          usdzBytes: usdz.length,
          coldMs: ms(cold),
          warmMs: Math.round(warm * 10) / 10,
        })
      } catch (error) {
        rows.push({
          model: model.name,
          sourceBytes: bytes.length,
          refused: (error as Error).message,
          coldMs: ms(performance.now() - start),
        })
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

/** Part 2: one visit to the showcase, nothing pressed. */
async function beforePress(browser: Browser, origin: string) {
  const context = await browser.newContext({ ...PHONE })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  await page.addInitScript(() => {
    const tasks: number[] = []
    ;(window as unknown as { __tasks: number[] }).__tasks = tasks
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration)
    }).observe({ type: 'longtask', buffered: true })
  })
  const sizes: Promise<{ script: boolean; bytes: number }>[] = []
  page.on('requestfinished', (request) =>
    sizes.push(
      request.sizes().then(
        (s) => ({ script: request.resourceType() === 'script', bytes: s.responseBodySize }),
        () => ({ script: false, bytes: 0 }),
      ),
    ),
  )
  await page.goto(`${origin}${SHOWCASE}`, { waitUntil: 'load' })
  await page.waitForTimeout(QUIET_AFTER_LOAD_MS)
  const tasks = await page.evaluate(() => (window as unknown as { __tasks: number[] }).__tasks)
  const arControl = await page.locator('[data-ar-link]').count()
  const settled = await Promise.all(sizes)
  await context.close()
  return {
    bytes: settled.reduce((sum, s) => sum + s.bytes, 0),
    scriptBytes: settled.filter((s) => s.script).reduce((sum, s) => sum + s.bytes, 0),
    longTasks: tasks.length,
    longestTaskMs: ms(Math.max(0, ...tasks)),
    blockingMs: ms(tasks.reduce((sum, t) => sum + Math.max(0, t - 50), 0)),
    arControl,
  }
}

/** Part 3: the press to the first XR frame and to the model, under IWER; null without WebXR. */
/** Heard the same way on any page: the press (the first click) and the session's first frame. */
const PRESS = 'bench:press'
const XR_FRAME = 'bench:xr-first-frame'
function hearPressAndFrame() {
  const tasks: { start: number; duration: number }[] = []
  ;(globalThis as { benchLongTasks?: typeof tasks }).benchLongTasks = tasks
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      tasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  document.addEventListener('click', () => performance.mark('bench:press'), {
    capture: true,
    once: true,
  })
  const xr = navigator.xr as unknown as {
    requestSession: (...args: unknown[]) => Promise<{
      requestAnimationFrame: (callback: (time: number, frame: unknown) => void) => number
    }>
  }
  const request = xr.requestSession.bind(xr)
  xr.requestSession = async (...args: unknown[]) => {
    const session = await request(...args)
    const raf = session.requestAnimationFrame.bind(session)
    let heard = false
    session.requestAnimationFrame = (callback) =>
      raf((time, frame) => {
        callback(time, frame)
        if (!heard) {
          heard = true
          performance.mark('bench:xr-first-frame')
        }
      })
    return session
  }
}

/**
 * An AR phone's page at `url`, CPU 4× slower from the navigation, its model shown (`ready`), then
 * looked at for LOOK_MS and the network idle before the press; null where `button` never shows.
 * Besides the press to the first frame: the long tasks from the model shown to the press, what
 * fetching anything ahead of the press costs the visitor.
 */
async function pressOn(
  browser: Browser,
  url: string,
  button: string,
  ready: (page: import('@playwright/test').Page) => Promise<unknown>,
  modelMark: string | null,
) {
  const context = await browser.newContext({ ...PHONE, deviceScaleFactor: 1 })
  await emulateArPhone(context, PHONE.userAgent)
  await context.addInitScript('globalThis.__name = (fn) => fn')
  await context.addInitScript(hearPressAndFrame)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 })
  let shownAt: number
  try {
    await page.locator(button).waitFor({ timeout: 30_000 })
    await ready(page)
    shownAt = await page.evaluate(() => performance.now())
  } catch {
    await context.close()
    return null
  }
  await page.waitForTimeout(LOOK_MS)
  await page.waitForLoadState('networkidle')
  await page.locator(button).tap()
  const marks = await page.waitForFunction(
    (names) => {
      // (No named function in here: tsx would wrap it in a helper the page does not have.)
      const [press, frame, model] = names.map((name) =>
        name ? performance.getEntriesByName(name)[0]?.startTime : 0,
      )
      return press !== undefined && frame !== undefined && model !== undefined
        ? { frame: frame - press, model: model - press, press }
        : null
    },
    [PRESS, XR_FRAME, modelMark],
    { timeout: 60_000 },
  )
  const value = (await marks.jsonValue())!
  const tasks = await page.evaluate(
    () => (globalThis as { benchLongTasks?: { start: number; duration: number }[] }).benchLongTasks,
  )
  // Tasks over before the press: the press's own task (its handler, the session's start) is not.
  const beforePress = (tasks ?? []).filter(
    (task) => task.start >= shownAt && task.start + task.duration <= value.press,
  )
  await context.close()
  return {
    firstFrameMs: ms(value.frame),
    modelMs: modelMark ? ms(value.model) : null,
    longTasksShownToPress: beforePress.length,
    longestTaskShownToPressMs: ms(Math.max(0, ...beforePress.map((task) => task.duration))),
  }
}

/** Part 3: the press to the first XR frame and to the model, under IWER; null without WebXR. */
const pressToFrame = (browser: Browser, origin: string) =>
  pressOn(
    browser,
    `${origin}${SHOWCASE}`,
    'button[data-ar-link]',
    async (page) => {
      // The viewer with the button scrolled to, and its model live, as `<model-viewer>`'s below.
      const slot = page.locator('[data-3d-slot]:has(button[data-ar-link])')
      await slot.scrollIntoViewIfNeeded()
      await slot.locator('[data-3d-state="live"]').waitFor({ timeout: 60_000 })
    },
    AR_MARKS.model,
  )

/** The same on `<model-viewer>`, its page loaded and its model shown before the press. */
const anchorPressToFrame = (browser: Browser, url: string) =>
  pressOn(
    browser,
    url,
    'model-viewer #default-ar-button',
    (page) =>
      page.waitForFunction(
        () => (document.querySelector('model-viewer') as { loaded?: boolean } | null)?.loaded,
        undefined,
        { timeout: 30_000 },
      ),
    null,
  )

async function main() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')
  const startLoad = load()
  console.log(`USDZ of the corpus (${CORPUS.join(', ')})…`)
  const usdz = await usdzFigures()
  for (const row of usdz) console.log(JSON.stringify(row))

  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const pages: Record<string, Awaited<ReturnType<typeof beforePress>>[]> = {}
  const presses: Record<string, NonNullable<Awaited<ReturnType<typeof pressToFrame>>>[]> = {}
  // The anchor, given the last site's `ar` file of the showcase's lamp.
  const anchorSite = await serveModelViewer()
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-ar-anchor-'))
  const last = ORIGINS.at(-1)!.url
  const lamp = /\/local\/prismic\/media\/models\/lamp\.glb\?v=[\w-]+/.exec(
    await (await fetch(`${last}${SHOWCASE}`)).text(),
  )?.[0]
  if (!lamp) throw new Error(`${last}${SHOWCASE} names no lamp.glb`)
  const arFile = path.join(scratch, 'lamp-ar.glb')
  writeFileSync(arFile, Buffer.from(await (await fetch(`${last}${lamp}&tier=ar`)).arrayBuffer()))
  const anchorUrl = anchorSite.show(
    'lamp-ar.glb',
    arFile,
    { top: 0, width: 412, height: 412 },
    'ar ar-modes="webxr"',
  )
  try {
    // Interleaved, so every site meets the same load on the machine.
    for (let i = 0; i < RUNS; i++) {
      for (const { label, url } of ORIGINS) {
        ;(pages[label] ??= []).push(await beforePress(browser, url))
        const press = await pressToFrame(browser, url)
        if (press) (presses[label] ??= []).push(press)
      }
      const press = await anchorPressToFrame(browser, anchorUrl)
      if (press) (presses['model-viewer'] ??= []).push(press)
    }
  } finally {
    await browser.close()
    await anchorSite.close()
    rmSync(scratch, { recursive: true, force: true })
  }
  const summary = (runs: Record<string, number>[]) =>
    Object.fromEntries(Object.keys(runs[0]!).map((key) => [key, median(runs.map((r) => r[key]!))]))
  const result = {
    date: new Date().toISOString(),
    setup: `headless Chromium (SwiftShader), ${PHONE.viewport.width}×${PHONE.viewport.height}, CPU ${CPU}× slower, ${os.cpus().length} cores; load average ${startLoad} at the start, ${load()} at the end; median of ${RUNS}`,
    usdz,
    beforePress: Object.fromEntries(
      Object.entries(pages).map(([label, runs]) => [label, summary(runs)]),
    ),
    pressToFrame: Object.fromEntries(
      [...ORIGINS.map(({ label }) => label), 'model-viewer'].map((label) => [
        label,
        presses[label]
          ? summary(presses[label] as unknown as Record<string, number>[])
          : 'no in-page AR session',
      ]),
    ),
  }
  writeFileSync('bench/ar.json', JSON.stringify(result, null, 2) + '\n')
  console.log(JSON.stringify({ ...result, usdz: undefined }, null, 2))
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
