// `npm run bench:bridge`: why the 3D's bridge is the site's own (CanvasHost.tsx) rather than
// @react-three/offscreen, as a measurement (issue #13). The same small scene (bench/bridge/
// scene.tsx: a lit, turning torus knot) is drawn in a Web Worker two ways:
//   A  @react-three/offscreen: its Canvas on the page forwards every pointer and wheel event to
//      its `render` in the worker (bench/bridge/a-page.tsx, a-worker.tsx);
//   B  the site's bridge: the real CanvasHost transfers a viewport-sized canvas and sends the
//      slot's rectangle once per animation frame on scroll, and a drag as view commands
//      (bench/bridge/b-page.tsx, b-worker.tsx, which speaks src/three/protocol.ts).
// Each page is bundled with esbuild into a temporary folder and served on a port of its own. In
// headless Chromium (SwiftShader WebGL 2, also in workers), on a phone-sized viewport with the CPU
// slowed 4× (Lighthouse's mobile setting), median of 5 fresh visits, it records:
//   - whether a frame is drawn at all (the worker reads its pixels back) and any error;
//   - the time from navigation to the page hearing of that first frame;
//   - the main-thread bundle, gzipped, and minus a React-only page (both ship React);
//   - the main thread's cost while the visitor drags over the scene (200 pointer moves) and
//     scrolls the page (10 wheel notches): script and task time (CDP Performance.getMetrics),
//     long tasks, and the slowest input (Event Timing).
// Writes bench/bridge.json. Figures live here, never in tests.
//   --runs 5   --out bench/bridge.json
import { createServer } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import {
  CHROME_ARGS,
  CHROME_PATH,
  CPU_SLOWDOWN,
  MOBILE as DEVICE,
  runBenchmark,
} from './lib/chromium.mjs'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/bridge.json' },
  },
})
const RUNS = Number(args.runs)
const POINTER_MOVES = 200
const WHEEL_NOTCHES = 10
/** Quiet: this long without a long task after the first frame, before the interaction. */
const QUIET_MS = 1000
const SOURCES = path.join(import.meta.dirname, 'bridge')

/**
 * The pages and workers, bundled as a site would ship them: minified, production React, and each
 * `import()` split into a chunk of its own as Next.js does (CanvasHost's main-thread renderer is
 * one, loaded only where a worker cannot draw). Each worker lands where its page asks for it,
 * B's at CanvasHost's own `./render/render.worker.ts`.
 */
const PAGES = { baseline: 'baseline.tsx', a: 'a-page.tsx', b: 'b-page.tsx' }
const WORKERS = { a: ['a-worker.tsx', 'worker.js'], b: ['b-worker.tsx', 'render/render.worker.ts'] }
const OPTIONS = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'error',
  metafile: true,
}

/** The page around the scene: a hero-sized stage, then enough text to scroll. */
const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>body{margin:0;font:16px/1.5 system-ui}#stage{position:relative;height:420px}
p{margin:0;padding:8px 16px}</style></head>
<body><div id="stage"></div>${'<p>Facet measures what a visitor feels. '.repeat(80)}
<script type="module" src="page.js"></script></body></html>`

const gzipOf = (file) => gzipSync(readFileSync(file)).length

/**
 * Gzipped bytes of an esbuild output: `initial`, the entry and every chunk it imports statically
 * (what the page loads before anything else); `lazy`, the chunks only an `import()` reaches.
 */
function sizesOf(dir, metafile, entry) {
  const seen = new Set()
  const walk = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const i of metafile.outputs[file].imports) if (i.kind === 'import-statement') walk(i.path)
  }
  walk(entry)
  const all = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js') || f.endsWith('.ts'))
  const sum = (files) => files.reduce((total, f) => total + gzipOf(path.join(dir, f)), 0)
  return { initial: sum([...seen]), lazy: sum(all.filter((f) => !seen.has(f))) }
}

/** Bundles every page and worker into a fresh temporary folder; returns it and the sizes. */
async function bundle() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bridge-'))
  const sizes = {}
  for (const [key, entry] of Object.entries(PAGES)) {
    const outdir = path.join(dir, key)
    const { metafile } = await build({
      ...OPTIONS,
      entryPoints: { page: path.join(SOURCES, entry) },
      outdir,
      splitting: true,
      absWorkingDir: dir,
    })
    sizes[key] = { page: sizesOf(dir, metafile, `${key}/page.js`) }
    writeFileSync(path.join(outdir, 'index.html'), HTML)
  }
  for (const [key, [entry, out]] of Object.entries(WORKERS)) {
    const outfile = path.join(dir, key, out)
    await build({ ...OPTIONS, entryPoints: [path.join(SOURCES, entry)], outfile })
    sizes[key].worker = gzipOf(outfile)
  }
  return { dir, sizes }
}

/** A static server for the bundles on a free port; `.ts` is B's worker, JavaScript too. */
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.ts': 'text/javascript' }
  const server = createServer((request, response) => {
    const file = path.join(dir, path.normalize(new URL(request.url, 'http://x').pathname))
    try {
      const body = readFileSync(file.endsWith(path.sep) ? path.join(file, 'index.html') : file)
      response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'text/html' })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  )
}

/** Runs in the page before its own scripts: records long tasks and Event Timing entries. */
function observe() {
  window.__bench = { longTasks: [], events: [] }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__bench.longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__bench.events.push({ name: e.name, start: e.startTime, duration: e.duration })
  }).observe({ type: 'event', durationThreshold: 16, buffered: true })
}

/** The main thread's script and task time so far, in ms (CDP reports seconds). */
async function mainThreadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics')
  const value = (name) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000
  return { script: value('ScriptDuration'), task: value('TaskDuration') }
}

/** Waits until the worker reports its first frame or an error (60 s at most). */
async function firstFrame(page) {
  await page
    .waitForFunction(() => window.__bridge?.frame || window.__bridge?.errors.length, null, {
      timeout: 60_000,
      polling: 100,
    })
    .catch(() => {})
  return page.evaluate(() => window.__bridge ?? { frame: null, errors: ['no probe'] })
}

/** Waits until QUIET_MS have passed without a long task. */
function waitQuiet(page) {
  return page.waitForFunction(
    (quiet) => {
      const last = window.__bench.longTasks.at(-1)
      return performance.now() - (last ? last.start + last.duration : 0) > quiet
    },
    QUIET_MS,
    { timeout: 60_000, polling: 250 },
  )
}

/**
 * The visitor: drags across the scene (pointer down, 200 moves, up), then, with the pointer off
 * the stage so the wheel scrolls the page rather than zooming a viewer, 10 wheel notches.
 */
async function interact(page) {
  const { width } = DEVICE.viewport
  await page.mouse.move(width / 2, 200)
  await page.mouse.down()
  for (let i = 0; i < POINTER_MOVES; i++)
    await page.mouse.move(width / 2 + 80 * Math.sin(i / 10), 200 + 40 * Math.cos(i / 10))
  await page.mouse.up()
  await page.mouse.move(width / 2, 700)
  for (let i = 0; i < WHEEL_NOTCHES; i++) {
    await page.mouse.wheel(0, 120)
    await page.waitForTimeout(100)
  }
  await page.waitForTimeout(500)
}

/** One fresh visit of one approach's page. */
async function visit(browser, url) {
  const context = await browser.newContext({ ...DEVICE, hasTouch: false })
  try {
    const page = await context.newPage()
    const errors = []
    page.on('pageerror', (error) => errors.push(String(error)))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.addInitScript(observe)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await cdp.send('Performance.enable')
    await page.goto(url, { timeout: 120_000 })
    const probe = await firstFrame(page)
    const drew = (probe.frame?.litPixels ?? 0) > 0
    const result = {
      drew,
      litPixels: probe.frame?.litPixels ?? 0,
      firstFrameMs: probe.firstFrameAt === null ? null : Math.round(probe.firstFrameAt),
      errors: [...probe.errors, ...errors],
    }
    if (!drew) return result
    await waitQuiet(page)
    const start = await page.evaluate(() => performance.now())
    const before = await mainThreadMs(cdp)
    await interact(page)
    const after = await mainThreadMs(cdp)
    const { longTasks, events } = await page.evaluate(() => window.__bench)
    const tasks = longTasks.filter((t) => t.start >= start)
    const inputs = events.filter((e) => e.start >= start)
    return {
      ...result,
      scriptMs: Math.round(after.script - before.script),
      taskMs: Math.round(after.task - before.task),
      longTasks: tasks.length,
      blockingMs: Math.round(tasks.reduce((a, t) => a + Math.max(0, t.duration - 50), 0)),
      // Event Timing reports only entries of 16 ms or more: 0 means every input was faster.
      slowestInputMs: Math.round(Math.max(0, ...inputs.map((e) => e.duration))),
    }
  } finally {
    await context.close()
  }
}

const median = (list) => {
  const values = list.filter((v) => typeof v === 'number').sort((a, b) => a - b)
  return values.length ? values[Math.floor(values.length / 2)] : null
}

const kb = (bytes) => Number((bytes / 1024).toFixed(1))

async function main() {
  const { dir, sizes } = await bundle()
  const server = await serve(dir)
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS })
  const baseline = sizes.baseline.page.initial
  const results = []
  try {
    for (const [key, name] of [
      ['a', '@react-three/offscreen@0.0.8'],
      ['b', 'own bridge (CanvasHost)'],
    ]) {
      const load = os.loadavg()[0]
      const runs = []
      for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, `${server.origin}/${key}/`))
      results.push({
        approach: name,
        drew: `${runs.filter((r) => r.drew).length}/${runs.length}`,
        errors: [...new Set(runs.flatMap((r) => r.errors))],
        firstFrameMs: median(runs.map((r) => r.firstFrameMs)),
        pageGzipKB: kb(sizes[key].page.initial),
        pageMinusReactGzipKB: kb(sizes[key].page.initial - baseline),
        pageLazyGzipKB: kb(sizes[key].page.lazy),
        workerGzipKB: kb(sizes[key].worker),
        scriptMs: median(runs.map((r) => r.scriptMs)),
        taskMs: median(runs.map((r) => r.taskMs)),
        longTasks: median(runs.map((r) => r.longTasks)),
        blockingMs: median(runs.map((r) => r.blockingMs)),
        slowestInputMs: median(runs.map((r) => r.slowestInputMs)),
        loadAverage: { start: load, end: os.loadavg()[0] },
        runs,
      })
    }
  } finally {
    await browser.close()
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  console.table(
    Object.fromEntries(
      results.map(({ approach, runs: _runs, loadAverage: _load, errors, ...figures }) => [
        approach,
        { ...figures, errors: errors.length },
      ]),
    ),
  )
  for (const r of results) for (const e of r.errors) console.log(`${r.approach}: ${e}`)
  const report = {
    date: new Date().toISOString(),
    environment: `headless Chromium (SwiftShader WebGL), ${DEVICE.viewport.width}×${DEVICE.viewport.height} at ${DEVICE.deviceScaleFactor}×, CPU ${CPU_SLOWDOWN}× slower, ${os.cpus().length} cores`,
    protocol: `fresh visit, first frame, ${QUIET_MS} ms without a long task, a drag of ${POINTER_MOVES} pointer moves over the scene, ${WHEEL_NOTCHES} wheel notches scrolling the page; median of ${RUNS}`,
    reactBaselineGzipKB: kb(baseline),
    bundles: sizes,
    results,
  }
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`)
}

runBenchmark(main)
