// `npm run bench:story`: the story told by scroll (/en-us/story) as a phone's visitor meets it,
// beside the showcase, on the production build in headless Chromium (SwiftShader: software WebGL 2)
// at 4× CPU, and writes bench/story.json. Figures live here, never in tests.
//
// For each render path (the worker, and the main thread as WebKit draws):
// - a scroll through the whole story with a finger's gesture (CDP's synthesized scroll: the
//   compositor scrolls, as a thumb does): the frames the page showed and the frames the renderer
//   drew, a second; the longest main-thread task meanwhile; the renderer's lag in frames (how many
//   of the page's measures, sent before a drawn frame began, came after the one it drew with);
// - beside it, the showcase's viewer turned from the keyboard for as long: the same figures.
// Then, for the story and the showcase: the LCP, and the bytes before engagement (loaded, 5 s of
// a visitor reading the first screen, no scroll).
//   --runs 3     each figure is the median of this many runs
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { chromium, type Browser, type Page } from '@playwright/test'
import { CHROME_ARGS, CHROME_PATH, CPU_SLOWDOWN, MOBILE, runBenchmark } from './lib/chromium.mjs'
import { startSite } from './lib/site-server.mjs'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } })
const RUNS = Number(args.runs)
const PORT = Number(process.env.BENCH_PORT || 3345)
const ORIGIN = `http://127.0.0.1:${PORT}`
const PATHS = ['worker', 'main'] as const

type Hook = {
  frames: number
  sent: number
  seq: number
  sentAt: Map<number, number>
  drawn: { seq: number; began: number }[]
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/** A phone's page at 4× CPU, recording long tasks from its start. */
async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ ...MOBILE, hasTouch: true })
  const page = await context.newPage()
  // tsx names the functions it compiles (`__name`), also those sent into the page.
  await page.addInitScript('globalThis.__name = (f) => f')
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] }
    w.__longTasks = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        w.__longTasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  return page
}

/** Engages and waits for the first 3D slot of the selector's to be live, its poster gone. */
async function live(page: Page, selector: string) {
  await page.evaluate(() => window.scrollBy(0, 1))
  const slot = page.locator(selector).first()
  await slot.scrollIntoViewIfNeeded()
  await page.locator(`${selector}[data-3d-state="live"]`).first().waitFor({ timeout: 120_000 })
  await page.waitForTimeout(1000)
}

/**
 * Runs `act` and counts, meanwhile: the page's frames (rAF), the renderer's drawn frames, the
 * longest main-thread task, and each drawn frame's lag.
 */
async function during(page: Page, act: () => Promise<void>) {
  await page.evaluate(() => {
    const w = window as unknown as { __pageFrames: number; __counting: boolean }
    w.__pageFrames = 0
    w.__counting = true
    const count = () => {
      if (!w.__counting) return
      w.__pageFrames++
      requestAnimationFrame(count)
    }
    requestAnimationFrame(count)
  })
  const start = await page.evaluate(() => ({
    at: performance.now(),
    frames: (window as unknown as { __facet3d: Hook }).__facet3d.frames,
    drawn: (window as unknown as { __facet3d: Hook }).__facet3d.drawn.length,
  }))
  await act()
  await page.waitForTimeout(300)
  return page.evaluate((start) => {
    const w = window as unknown as {
      __pageFrames: number
      __counting: boolean
      __facet3d: Hook
      __longTasks: { start: number; duration: number }[]
    }
    w.__counting = false
    const seconds = (performance.now() - start.at) / 1000
    const hook = w.__facet3d
    const sent = [...hook.sentAt]
    const lags = hook.drawn
      .slice(start.drawn)
      .map(({ seq, began }) => sent.filter(([n, at]) => n > seq && at < began).length)
    const tasks = w.__longTasks.filter((t) => t.start >= start.at).map((t) => t.duration)
    return {
      seconds,
      pageFps: w.__pageFrames / seconds,
      rendererFps: (hook.frames - start.frames) / seconds,
      longestTaskMs: Math.max(0, ...tasks),
      lagMedian: lags.length ? lags.sort((a, b) => a - b)[Math.floor(lags.length / 2)]! : 0,
      lagMost: Math.max(0, ...lags),
    }
  }, start)
}

/** A finger's scroll through the story, from its top to past its last step. */
async function scrollStory(page: Page) {
  await page.evaluate(() => document.querySelector('.slice-scroll-story')!.scrollIntoView())
  await page.waitForTimeout(500)
  const distance = await page.evaluate(() => {
    const story = document.querySelector('[data-story]')!.getBoundingClientRect()
    return Math.round(story.height - window.innerHeight / 2)
  })
  const cdp = await page.context().newCDPSession(page)
  const from = await page.evaluate(() => window.scrollY)
  const figures = await during(page, async () => {
    await cdp.send('Input.synthesizeScrollGesture', {
      x: 200,
      y: 600,
      yDistance: -distance,
      speed: 1200,
      // A wheel's scroll: the compositor scrolls the page, as under a thumb (a synthesized touch
      // scrolls nothing in headless Chromium here).
      gestureSourceType: 'mouse',
      repeatCount: 1,
    })
  })
  const scrolled = (await page.evaluate(() => window.scrollY)) - from
  if (scrolled < distance / 2)
    throw new Error(`bench:story: the gesture scrolled ${scrolled} px of ${distance}`)
  return figures
}

/**
 * The showcase's viewer turned from the keyboard (its "Turn right" button focused, the arrow key
 * pressed again and again, as a held key repeats), for about as long as a scroll through the
 * story takes: input as steady as the scroll's. (Drags synthesized at 4× CPU here reached the
 * viewer as a few moves: they turned it a few degrees.)
 */
async function turnViewer(page: Page, seconds: number) {
  const viewer = page.locator('[data-3d-kind="viewer"]')
  await viewer.locator('[data-3d-stage]').scrollIntoViewIfNeeded()
  await viewer.locator('[data-3d-view="turnRight"]').focus()
  const azimuth = () =>
    page.evaluate(() =>
      Object.values(
        (window as unknown as { __facet3d: { orbits: Record<string, { azimuth: number }> } })
          .__facet3d.orbits,
      ).map((orbit) => orbit.azimuth),
    )
  const before = await azimuth()
  const figures = await during(page, async () => {
    const until = Date.now() + seconds * 1000
    while (Date.now() < until) await page.keyboard.press('ArrowRight')
  })
  // Each press turns 30 degrees: twelve come back to the start, so the same azimuth may be a
  // whole number of turns. One more press then tells.
  if (JSON.stringify(before) === JSON.stringify(await azimuth())) {
    await page.keyboard.press('ArrowRight')
    await page.waitForTimeout(1000)
    if (JSON.stringify(before) === JSON.stringify(await azimuth()))
      throw new Error('bench:story: the keys did not turn the viewer')
  }
  return figures
}

/** LCP and bytes before engagement: the page loaded, 5 s of reading, no scroll. */
async function firstScreen(browser: Browser, pathname: string) {
  const page = await phonePage(browser)
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number }
    w.__lcp = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime
    }).observe({ type: 'largest-contentful-paint', buffered: true })
  })
  let bytes = 0
  page.on('response', async (response) => {
    const sizes = await response
      .request()
      .sizes()
      .catch(() => null)
    if (sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize
  })
  await page.goto(`${ORIGIN}${pathname}`, { waitUntil: 'load' })
  await page.waitForTimeout(5000)
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp)
  await page.context().close()
  return { lcpMs: Math.round(lcp), kb: round(bytes / 1024) }
}

async function main() {
  const site = await startSite({ port: PORT })
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS })
  const results: Record<string, unknown> = {}
  try {
    for (const path of PATHS) {
      const flags = path === 'main' ? 'main' : ''
      const story = []
      const viewer = []
      for (let run = 0; run < RUNS; run++) {
        const page = await phonePage(browser)
        await page.goto(`${ORIGIN}/en-us/story?debug3d=${flags}`, { waitUntil: 'load' })
        await live(page, '.story-stage [data-3d-state]')
        story.push(await scrollStory(page))
        await page.context().close()
        const showcase = await phonePage(browser)
        await showcase.goto(`${ORIGIN}/en-us/showcase?debug3d=${flags}`, { waitUntil: 'load' })
        await live(showcase, '[data-3d-kind="viewer"]')
        viewer.push(await turnViewer(showcase, story.at(-1)!.seconds))
        await showcase.context().close()
      }
      const summary = (runs: Awaited<ReturnType<typeof during>>[]) => ({
        seconds: round(median(runs.map((r) => r.seconds))),
        pageFps: round(median(runs.map((r) => r.pageFps))),
        rendererFps: round(median(runs.map((r) => r.rendererFps))),
        longestTaskMs: Math.round(median(runs.map((r) => r.longestTaskMs))),
        lagMedianFrames: median(runs.map((r) => r.lagMedian)),
        lagMostFrames: Math.max(...runs.map((r) => r.lagMost)),
      })
      results[path] = { storyScroll: summary(story), viewerTurn: summary(viewer) }
    }
    const screens: Record<string, unknown> = {}
    for (const pathname of ['/en-us/story', '/en-us/showcase']) {
      const runs = []
      for (let run = 0; run < RUNS; run++) runs.push(await firstScreen(browser, pathname))
      screens[pathname] = {
        lcpMs: median(runs.map((r) => r.lcpMs)),
        kbBeforeEngagement: median(runs.map((r) => r.kb)),
      }
    }
    results.firstScreen = screens
  } finally {
    await browser.close()
    site.stop()
  }
  const { loadavg } = await import('node:os')
  const report = {
    date: new Date().toISOString(),
    environment: `headless Chromium, SwiftShader, ${MOBILE.viewport.width}×${MOBILE.viewport.height} at ${MOBILE.deviceScaleFactor}×, ${CPU_SLOWDOWN}× CPU, localhost; median of ${RUNS}`,
    loadAverage: loadavg().map((l) => round(l, 2)),
    ...results,
  }
  writeFileSync('bench/story.json', `${JSON.stringify(report, null, 2)}\n`)
  console.log(JSON.stringify(report, null, 2))
}

runBenchmark(main)
