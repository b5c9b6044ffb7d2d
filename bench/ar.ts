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
//    the time from the press to the session's first XR frame and to its model loaded, at 4× CPU.
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
async function pressToFrame(browser: Browser, origin: string) {
  const context = await browser.newContext({ ...PHONE, deviceScaleFactor: 1 })
  await emulateArPhone(context, PHONE.userAgent)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await page.goto(`${origin}${SHOWCASE}`, { waitUntil: 'load' })
  const button = page.locator('button[data-ar-link]')
  try {
    await button.waitFor({ timeout: 15_000 })
  } catch {
    await context.close()
    return null
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  await button.click()
  const marks = await page.waitForFunction(
    (names) => {
      // (No named function in here: tsx would wrap it in a helper the page does not have.)
      const [press, frame, model] = names.map(
        (name) => performance.getEntriesByName(name)[0]?.startTime,
      )
      return press !== undefined && frame !== undefined && model !== undefined
        ? { frame: frame - press, model: model - press }
        : null
    },
    [AR_MARKS.press, AR_MARKS.firstFrame, AR_MARKS.model],
    { timeout: 60_000 },
  )
  const value = (await marks.jsonValue())!
  await context.close()
  return { firstFrameMs: ms(value.frame), modelMs: ms(value.model) }
}

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
  try {
    // Interleaved, so every site meets the same load on the machine.
    for (let i = 0; i < RUNS; i++)
      for (const { label, url } of ORIGINS) {
        ;(pages[label] ??= []).push(await beforePress(browser, url))
        const press = await pressToFrame(browser, url)
        if (press) (presses[label] ??= []).push(press)
      }
  } finally {
    await browser.close()
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
      ORIGINS.map(({ label }) => [
        label,
        presses[label] ? summary(presses[label]) : 'no in-page AR session',
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
