// The showcase's model viewer going live, as a visitor on a phone meets it: headless Chromium at
// a phone's viewport with the CPU slowed 4×, the page loaded and quiet, then the visitor scrolls
// to the viewer (the slot's engagement, which starts the 3D). Measured: the time from that scroll
// to the viewer live, the longest main-thread task in that time (a PerformanceObserver on
// `longtask`), whether the model's texture shows (the corpus's checker), the decoders fetched,
// and (`?debug3d`) what the renderer loaded. The viewer's model is whatever `serve` answers for
// the lamp's URL, or the site at `origin` does (`rewritingProxy` in front of it: `npm run
// bench:viewers`). Shared by `npm run bench:models-corpus` and `npm run bench:models`.
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import type { Browser, BrowserContext, Page, Route } from '@playwright/test'
import sharp from 'sharp'
import type { ModelInfo } from '../../src/three/protocol'
import { textureShares } from '../../tests/fixtures/model-corpus'
import { TASK_TRACE_CATEGORIES, threadTimes } from './trace-tasks.mjs'

export const CPU = 4

/**
 * Lighthouse's mobile network ("slow 4G": its `mobileSlow4G` throttling), for `--network slow4g`:
 * 150 ms a round trip, 1.6 Mbit/s down, 750 kbit/s up. Chromium applies DevTools' conditions to
 * the page's requests and its dedicated workers' alike.
 */
export const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
}

/** The network every measured visit goes through: none (localhost as it is) unless set. */
let network: typeof SLOW_4G | null = null
export function setNetwork(conditions: typeof SLOW_4G | null): void {
  network = conditions
}
export const networkName = () => (network ? 'slow 4G (150 ms RTT, 1.6 Mbit/s down)' : 'localhost')

/**
 * When the visitor scrolls to the viewer: `quiet`, once the page has loaded and gone quiet (its
 * scripts in, no long task for a second: the warm-up has run by then), or `early`, 1.5 s after
 * `load` whatever the page is doing, as a visitor who does not wait for it (`--arrival early`).
 */
export type Arrival = 'quiet' | 'early'
let arrival: Arrival = 'quiet'
export function setArrival(when: Arrival): void {
  arrival = when
}
export const arrivalName = () =>
  arrival === 'early' ? 'an early scroll, 1.5 s after load' : 'the page loaded and quiet'
/** Whether the protocol waits for the page to go quiet before the scroll. */
export const waitsForQuiet = () => arrival === 'quiet'

/** A new visit's CDP session: the CPU slowed, and the network's conditions where set. */
export async function throttle(cdp: import('@playwright/test').CDPSession): Promise<void> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  if (network) {
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', network)
  }
}
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
}

/** The measuring setup, for a bench's JSON: browser, screen, CPU rate, cores and load now. */
export function environment(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
  return `headless Chromium (SwiftShader), ${PHONE.viewport.width}×${PHONE.viewport.height} at ${PHONE.deviceScaleFactor}×, CPU ${CPU}× slower, network ${networkName()}, ${os.cpus().length} cores, load average ${load}`
}

export type LiveRun = {
  state: string
  textured: boolean
  decoderBytes: number
  decoders: string[]
  timeToLiveMs: number
  longestTaskMs: number
  /** The main thread's blocking from the scroll to live: each task's time over 50 ms, summed. */
  blockingMs: number
  /** Bytes over the wire (bodies as sent, headers left out) before the scroll, and from it to live. */
  bytesBeforeScroll: number
  bytesToLive: number
  /** The viewer's stage: its top in the page and its size, in CSS pixels. */
  stage: { top: number; width: number; height: number }
  /** The renderer's tier and the viewer's model as it reported them (`?debug3d`). */
  tier: string | null
  model: ModelInfo | null
}

/** The lamp the showcase's viewer shows: its requests are the viewer's model's. */
export const isLamp = (url: URL) => url.pathname.endsWith('/models/lamp.glb')

/**
 * Opens `origin`'s showcase (`?debug3d`, plus `flags`) on a phone, lets `serve` answer the
 * viewer's model, and measures the viewer going live after the visitor's scroll.
 */
export async function measureLive(
  browser: Browser,
  origin: string,
  /**
   * Serves the viewer's model requests (a route); null to leave them to the site. A route turns
   * Chromium's HTTP cache off for the whole visit (Playwright does, to see every request): the
   * worker's scripts, which the page fetches ahead so that the worker's `importScripts` finds them
   * in the cache, then come twice, one after another.
   */
  serve: ((route: Route) => Promise<void>) | null,
  flags = '',
  /** Trace every thread from the scroll to live, and write where their time went here. */
  tracePath?: string,
): Promise<LiveRun> {
  const context = await browser.newContext({ ...PHONE, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await throttle(cdp)
  const decoders = new Map<string, number>()
  page.on('response', async (response) => {
    const url = new URL(response.url())
    if (!url.pathname.startsWith('/3d-decoders/') && !url.pathname.includes('/_next/static/'))
      return
    if (!url.pathname.startsWith('/3d-decoders/') && !/draco|basis/.test(url.pathname)) return
    // As they came over the wire (compressed where the server compressed them).
    const bytes = await response
      .request()
      .sizes()
      .then(
        (sizes) => sizes.responseBodySize,
        () => 0,
      )
    decoders.set(url.pathname.split('/').pop()!, bytes)
  })
  if (serve) await context.route(isLamp, serve)
  const bytes = countBytes(context)
  // tsx (esbuild, keepNames) wraps named functions in the callbacks below with `__name`, which the
  // page does not have.
  await page.addInitScript('globalThis.__name = (fn) => fn')
  await page.addInitScript(() => {
    const w = window as unknown as { __tasks: { start: number; duration: number }[] }
    w.__tasks = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        w.__tasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  await page.goto(`${origin}/en-us/showcase?debug3d${flags ? `=${flags}` : ''}`, {
    waitUntil: 'load',
  })
  await page.waitForTimeout(1500)
  // With `--arrival early`, the scroll comes now. Else loaded and quiet, as the visitor of this
  // protocol finds the page: painted (the server adds the framework's scripts after the first
  // frame, server/after-paint.mjs), its scripts fetched, and no long task for a second since
  // (hydrated). Traced, a page opened right after a visit that drew the 33 MB original had not
  // painted 3.5 s after `load`: its scripts were fetched after the scroll, and their evaluation
  // and hydration were counted as the model's. Up to 15 s; a page never quiet is measured as it is.
  if (waitsForQuiet()) await waitForQuiet(page)
  if (tracePath) await browser.startTracing(page, { categories: TASK_TRACE_CATEGORIES })
  const stage = await page
    .locator('[data-3d-kind="viewer"] [data-3d-stage]')
    .evaluate((element) => {
      const rect = element.getBoundingClientRect()
      return { top: rect.top + window.scrollY, width: rect.width, height: rect.height }
    })
  // Early, the page's own requests may still be in flight: counted as they stand, not waited for.
  const bytesBeforeScroll = waitsForQuiet() ? await bytes.settle() : bytes.sofar()
  const result = await page.evaluate(
    () =>
      new Promise<{ state: string; start: number; end: number }>((resolve) => {
        const slot = document.querySelector('[data-3d-kind="viewer"]')!
        const start = performance.mark('bench-trace-zero').startTime
        // The protocol measures from the engagement that starts the 3D: a viewer already live
        // (the page's quiet window ran out first) measures something else, and says so.
        if (slot.getAttribute('data-3d-state') === 'live')
          return resolve({ state: 'live before the scroll', start, end: start })
        const settled = () => {
          const state = slot.getAttribute('data-3d-state')
          if (state === 'live' || state === 'error' || state === 'unsupported') {
            performance.mark('bench-trace-end')
            observer.disconnect()
            resolve({ state: state!, start, end: performance.now() })
            return true
          }
          return false
        }
        const observer = new MutationObserver(settled)
        observer.observe(slot, { attributes: true, attributeFilter: ['data-3d-state'] })
        setTimeout(() => {
          observer.disconnect()
          resolve({ state: 'timeout', start, end: performance.now() })
        }, 90_000)
        // The visitor scrolls to the viewer: the 3D starts with that engagement.
        slot.scrollIntoView({ block: 'center' })
        settled()
      }),
  )
  if (tracePath) await writeTrace(browser, tracePath)
  const during = await tasksBetween(page, result.start, result.end)
  const longest = Math.max(0, ...during.map((t) => t.duration))
  const bytesToLive = (await bytes.settle()) - bytesBeforeScroll
  let textured = false
  if (result.state === 'live') {
    await page.waitForTimeout(500)
    const png = await page.locator('[data-3d-kind="viewer"] [data-3d-stage]').screenshot()
    const shares = textureShares(await sharp(png).removeAlpha().raw().toBuffer())
    textured = shares.red > 0.01 && shares.green > 0.01
  }
  // What the renderer says it loaded (a build before `models` existed reports none).
  const reported = await page.evaluate(() => {
    const hook = (
      window as unknown as {
        __facet3d?: { tier: string; models?: Record<string, { url: string }> }
      }
    ).__facet3d
    const model = Object.values(hook?.models ?? {}).find((m) =>
      new URL(m.url).pathname.endsWith('/models/lamp.glb'),
    )
    return { tier: hook?.tier ?? null, model: model ?? null }
  })
  await context.close()
  return {
    state: result.state,
    textured,
    decoderBytes: [...decoders.values()].reduce((a, b) => a + b, 0),
    decoders: [...decoders.keys()].sort(),
    timeToLiveMs: Math.round(result.end - result.start),
    longestTaskMs: Math.round(longest),
    blockingMs: blocking(during),
    bytesBeforeScroll,
    bytesToLive,
    stage,
    tier: reported.tier,
    model: reported.model as ModelInfo | null,
  }
}

/** Waits until the showcase is painted, its scripts are in and no long task came for a second. */
async function waitForQuiet(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  await page
    .waitForFunction(
      () => {
        const tasks = (window as unknown as { __tasks: { start: number; duration: number }[] })
          .__tasks
        const scripts = performance
          .getEntriesByType('resource')
          .filter((r) => r.name.includes('/_next/static/') && r.name.endsWith('.js'))
        if (!scripts.length) return false
        const last = Math.max(
          ...tasks.map((t) => t.start + t.duration),
          ...scripts.map((r) => (r as PerformanceResourceTiming).responseEnd),
        )
        return performance.now() - last >= 1000
      },
      undefined,
      { polling: 100, timeout: 15_000 },
    )
    .catch(() => {})
}

/** Stops the browser's trace, and writes where each thread's time went (and the raw trace beside it). */
export async function writeTrace(browser: Browser, tracePath: string): Promise<void> {
  const raw = await browser.stopTracing()
  // The raw trace beside the summary, for DevTools' Performance panel.
  await writeFile(tracePath.replace(/(\.json)?$/, '.trace.json'), raw)
  await writeFile(tracePath, JSON.stringify(threadTimes(JSON.parse(raw.toString())), null, 2))
}

/** The page's long tasks (its init script's `__tasks`) that overlap `start`–`end`. */
export async function tasksBetween(
  page: Page,
  start: number,
  end: number,
): Promise<{ start: number; duration: number }[]> {
  const tasks = await page.evaluate(
    () => (window as unknown as { __tasks: { start: number; duration: number }[] }).__tasks,
  )
  return tasks.filter((t) => t.start + t.duration >= start && t.start <= end)
}

/** Total Blocking Time's measure of `tasks`: each one's time over 50 ms, summed. */
export const blocking = (tasks: { duration: number }[]) =>
  Math.round(tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0))

/**
 * Counts the bytes `context`'s pages and workers receive (each response's body as sent, so
 * compressed where the server compressed it). `settle()` waits for the responses begun so far
 * and returns the total; `sofar()` is the total of those already finished.
 */
export function countBytes(context: BrowserContext): {
  settle: () => Promise<number>
  sofar: () => number
} {
  let total = 0
  const pending = new Set<Promise<void>>()
  context.on('requestfinished', (request) => {
    const counted = request.sizes().then(
      (sizes) => void (total += sizes.responseBodySize),
      () => {},
    )
    pending.add(counted)
    void counted.finally(() => pending.delete(counted))
  })
  return {
    settle: async () => {
      while (pending.size) await Promise.all([...pending])
      return total
    },
    sofar: () => total,
  }
}

/**
 * A proxy in front of the site at `target`, on a port of its own, which answers every request as
 * the site does, but asks the site for `rewrite(url)` where that gives a path: the bench's way to
 * show a model of its own at the URL a page names, without a Playwright route (which turns
 * Chromium's HTTP cache off for the whole visit). The Host header goes through as the browser sent
 * it, so any URL the site writes out leads back here. Written here because it is a few lines over
 * node:http, for a bench.
 */
export async function rewritingProxy(
  target: string,
  rewrite: (url: URL) => string | null,
): Promise<{ url: string; close: () => Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true })
  const server = http.createServer((request, response) => {
    const asked = new URL(request.url ?? '/', target)
    const to = new URL(rewrite(asked) ?? `${asked.pathname}${asked.search}`, target)
    const upstream = http.request(
      to,
      { method: request.method, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502)
      response.end(String(error))
    })
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * What a visitor who never scrolls pays on `origin`'s page `pathname` (the showcase unless said):
 * bytes over the wire (bodies as sent) by `marks` milliseconds after `load` each, a phone at 4×
 * CPU as above, no input at all.
 */
export async function bytesWithoutInput(
  browser: Browser,
  origin: string,
  marks: number[],
  pathname = '/en-us/showcase',
): Promise<Record<string, number>> {
  const context = await browser.newContext({ ...PHONE, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await throttle(cdp)
  const bytes = countBytes(context)
  await page.goto(`${origin}${pathname}`, { waitUntil: 'load' })
  const loaded = Date.now()
  const out: Record<string, number> = {}
  for (const mark of [...marks].sort((a, b) => a - b)) {
    await page.waitForTimeout(Math.max(0, loaded + mark - Date.now()))
    out[String(mark)] = await bytes.settle()
  }
  await context.close()
  return out
}
