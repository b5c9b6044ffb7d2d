// `npm run bench:interaction`: what a new visitor on a phone feels when the 3D arrives. Lighthouse
// never scrolls, so it never sees the 3D load; this does, on the production build:
//   mobile viewport, CPU slowed 4× (Lighthouse's mobile setting, through CDP), page loaded and
//   quiet, one scroll (which is what asks for the 3D), then Tab every 250 ms for 10 s,
// recording the long tasks after the scroll (count, blocking total, longest) and the slowest
// input (Event Timing). Median of 5 runs per page and rendering path; writes
// bench/interaction.json. Figures live here, never in tests.
//   --runs 5                 runs per page and path
//   --paths worker,main,main@1x
//                            `worker`: the default path; `main`: forced with ?debug3d=main;
//                            `@1x` runs that path at full CPU speed (the fallback's promise:
//                            every task under 50 ms at full speed); `:still` (worker:still)
//                            leaves the scenes as this software renderer ships them (still,
//                            low tier) instead of playing their motion as a phone's GPU would
//   --pages home,showcase,showcase viewer,project
//                            the pages with 3D to measure (all by default)
//   --label after            a name for this set of figures (e.g. `before` on older code)
//   --trace file.json        instead: one visit of the first page and path with a Chromium trace
//                            (written to the file), and where the slowest input's time went:
//                            each thread's busy milliseconds during it, and its longest slices
// Two baselines without 3D are measured in the same run, at each CPU rate:
//   - the same page without 3D (input on a 3D page within 30 ms of the same conditions without
//     3D): the same URL, scroll and keys, in a browser whose canvases give no WebGL
//     context, so every slot keeps its poster, as a visitor without WebGL gets it. Each 3D row
//     gets the difference of its slowest input to this one's ("vs same page");
//   - the contact page, which has no 3D (DESIGN.md: within 30 ms), "vs contact".
//   --out bench/interaction.json
//   --headed                 Chromium in a window, as a visitor has it, instead of headless (needs a
//                            display: `xvfb-run -a npm run bench:interaction -- --headed`). Headless
//                            Chromium, with no window, now and then leaves the frame after a Tab
//                            out of the page unpresented, so that key's Event Timing waits for the
//                            next key's frame (docs/3d.md, "Input while the 3D draws")
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { startSite } from './lib/site-server.mjs'
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
    paths: { type: 'string', default: 'worker,main,main@1x' },
    pages: { type: 'string', default: 'home,showcase,showcase viewer,project' },
    label: { type: 'string', default: 'current' },
    trace: { type: 'string' },
    out: { type: 'string', default: 'bench/interaction.json' },
    headed: { type: 'boolean', default: false },
  },
})
if (args.headed && !process.env.DISPLAY)
  throw new Error('--headed needs a display: run it under `xvfb-run -a`')
const RUNS = Number(args.runs)
/** Each `--paths` entry: a rendering path, and the CPU slowdown to run it at (4× unless `@1x`). */
const PATHS = args.paths
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const match = /^(worker|main)(?:@(\d+)x)?(:still)?$/.exec(entry)
    if (!match)
      throw new Error(`--paths: '${entry}' is not worker or main, with an optional @Nx and :still`)
    return {
      name: entry,
      path: match[1],
      cpu: match[2] ? Number(match[2]) : CPU_SLOWDOWN,
      motion: !match[3],
    }
  })
const PORT = Number(process.env.BENCH_PORT || 3400)
const ORIGIN = process.env.BENCH_ORIGIN || `http://127.0.0.1:${PORT}`

/** DESIGN.md's budget for pages with 3D, in the worker path (median of 5). */
export const BUDGET = { blockingMs: 50, slowestInputMs: 100, overContactMs: 30 }
/** The page without 3D whose slowest input is the baseline. */
const CONTACT = { name: 'contact', path: '/en-us/contact', baseline: true }
/** The fallback's promise: on the main thread, at full CPU speed, no script runs 50 ms or more. */
export const FALLBACK_TASK_MS = 50
/** Quiet: this long after `load` without a long task (shorter than when-to-load's 5 s, so the
 * 3D is still waiting for the visitor when the scroll comes). */
const QUIET_MS = 1500
const KEY_EVERY_MS = 250
const KEYS_FOR_MS = 10_000

/** Starts the production server (server/index.mjs) unless BENCH_ORIGIN names a running one. */
async function startServer() {
  if (process.env.BENCH_ORIGIN) return () => {}
  return (await startSite({ port: PORT, siteUrl: ORIGIN })).stop
}

/**
 * The project page to measure: the first whose model viewer has a model, else the first project
 * page with a model viewer at all (its poster alone), from the work index's links.
 */
async function projectWithViewer() {
  const html = await (await fetch(`${ORIGIN}/en-us/work`)).text()
  const links = [
    ...new Set([...html.matchAll(/href="(\/en-us\/work\/[^"#?]+)"/g)].map((m) => m[1])),
  ]
  const pages = await Promise.all(
    links.map(async (link) => ({ link, html: await (await fetch(`${ORIGIN}${link}`)).text() })),
  )
  const withViewer = pages.filter((p) => p.html.includes('data-slice-type="model_viewer"'))
  const live = withViewer.find((p) => p.html.includes('data-3d-kind="viewer"'))
  return (live ?? withViewer[0])?.link ?? '/en-us/work/lumen-lamp'
}

/** Runs in the page before its own scripts: records long tasks and Event Timing entries. */
function observe() {
  const w = window
  w.__bench = { longTasks: [], events: [], frames: [], scripts: [] }
  // Long animation frames name the scripts that ran in them (event handlers, timers, animation
  // frame callbacks, module evaluation), each with its own duration: what the page's own code
  // cost, apart from what the browser did after it (style, layout, paint, and the commit, which
  // on a software compositor waits for the GPU process to draw a main-thread WebGL canvas).
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      w.__bench.frames.push({ start: frame.startTime, duration: frame.duration })
      for (const script of frame.scripts ?? [])
        w.__bench.scripts.push({
          start: script.startTime,
          duration: script.duration,
          invoker: script.invoker,
        })
    }
  }).observe({ type: 'long-animation-frame', buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      w.__bench.longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      w.__bench.events.push({
        name: e.name,
        start: e.startTime,
        duration: e.duration,
        interaction: e.interactionId ?? 0,
        // The element that had focus when the key was pressed: what the key did (a Tab out of
        // the page, say) is where tracing the slowest input starts.
        target: e.target
          ? `${e.target.tagName.toLowerCase()} "${(e.target.textContent ?? '').trim().slice(0, 24)}"`
          : 'none (no longer in the document)',
      })
  }).observe({ type: 'event', durationThreshold: 16, buffered: true })
}

/**
 * Runs in the page before its own scripts, for the same-page baseline: no canvas gives a WebGL
 * context, so the page's own probes (CanvasHost's `givesWebGL`) choose no renderer and every slot
 * keeps its poster. Nothing else on the page changes.
 */
function withoutWebGL() {
  for (const Canvas of [window.HTMLCanvasElement, window.OffscreenCanvas]) {
    if (!Canvas) continue
    const getContext = Canvas.prototype.getContext
    Canvas.prototype.getContext = function (type, ...rest) {
      return /webgl/i.test(String(type)) ? null : getContext.call(this, type, ...rest)
    }
  }
}

/** Waits until `load`, then until QUIET_MS have passed without a long task. */
async function waitQuiet(page) {
  await page.waitForLoadState('load')
  await page.waitForFunction(
    (quiet) => {
      const tasks = window.__bench.longTasks
      const last = tasks.length ? tasks.at(-1).start + tasks.at(-1).duration : 0
      const loaded = performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? 0
      return performance.now() - Math.max(last, loaded) > quiet
    },
    QUIET_MS,
    { timeout: 60_000, polling: 250 },
  )
}

const frames = (page) => page.evaluate(() => window.__facet3d?.frames ?? null)

/** What a trace records: tasks on every thread of every process, frames, input, user marks. */
const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'blink.user_timing',
  'input',
  'latencyInfo',
  'benchmark',
  'cc',
  'viz',
  'gpu',
]

/** Time spent in a list of [start, end] intervals, overlaps counted once. */
function unionLength(intervals) {
  let total = 0
  let until = -Infinity
  for (const [start, end] of intervals.sort((a, b) => a[0] - b[0])) {
    if (end <= until) continue
    total += end - Math.max(start, until)
    until = end
  }
  return total
}

/**
 * Where the slowest input's time went, from a trace: each thread's busy time (its slices'
 * union) within the input's duration, and the longest slices of the busiest threads.
 * `zero` is the page's `bench-trace-zero` mark, which ties the trace's clock to the page's.
 */
function traceSummary(trace, zero, slowest) {
  const events = trace.traceEvents ?? trace
  const names = new Map()
  const processes = new Map()
  for (const e of events) {
    if (e.ph !== 'M') continue
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name)
    if (e.name === 'process_name') processes.set(e.pid, e.args.name)
  }
  const mark = events.find((e) => e.name === 'bench-trace-zero')
  if (!mark || !slowest) return null
  const from = mark.ts + (slowest.start - zero) * 1000
  const to = from + slowest.duration * 1000
  const threads = new Map()
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue
    const start = Math.max(e.ts, from)
    const end = Math.min(e.ts + e.dur, to)
    if (end <= start) continue
    const key = `${e.pid}:${e.tid}`
    const thread = threads.get(key) ?? { intervals: [], slices: [] }
    thread.intervals.push([start, end])
    thread.slices.push({ name: e.name, ms: Math.round(e.dur / 100) / 10 })
    threads.set(key, thread)
  }
  const busy = [...threads.entries()]
    .map(([key, t]) => ({
      thread: `${processes.get(Number(key.split(':')[0])) ?? '?'} / ${names.get(key) ?? key}`,
      busyMs: Math.round(unionLength(t.intervals) / 100) / 10,
      longest: t.slices
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 4)
        .map((s) => `${s.name} ${s.ms} ms`),
    }))
    .sort((a, b) => b.busyMs - a.busyMs)
    .slice(0, 8)
  return { input: slowest, busy }
}

/** One visit: fresh context, slowed CPU, quiet page, one scroll, Tab every 250 ms for 10 s. */
async function visit(browser, target, { path, cpu, motion }, tracePath = null) {
  const context = await browser.newContext({ ...DEVICE, hasTouch: false })
  try {
    const page = await context.newPage()
    if (target.without3d) await page.addInitScript(withoutWebGL)
    await page.addInitScript(observe)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu })
    // `motion`: the scenes move as they would on a phone's GPU (SwiftShader would hold them
    // still); `main` forces the main-thread renderer.
    const debug = [motion && 'motion', path === 'main' && 'main'].filter(Boolean).join(',')
    await page.goto(`${ORIGIN}${target.path}?debug3d=${debug}`, { timeout: 120_000 })
    await waitQuiet(page)
    const distance = await page.evaluate((selector) => {
      const element = selector ? document.querySelector(selector) : null
      if (!element) return Math.round(window.innerHeight * 0.6)
      return Math.round(element.getBoundingClientRect().top - window.innerHeight * 0.15)
    }, target.scrollTo ?? null)
    const start = await page.evaluate(() => performance.now())
    if (tracePath) await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    const zero = await page.evaluate(() => performance.mark('bench-trace-zero').startTime)
    await page.mouse.move(200, 400)
    await page.mouse.wheel(0, distance)
    // The renderer starts after the scroll: its frame count then starts at 0.
    const framesAtStart = (await frames(page)) ?? 0
    const began = Date.now()
    for (let i = 0; i < KEYS_FOR_MS / KEY_EVERY_MS; i++) {
      const due = began + i * KEY_EVERY_MS
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()))
      await page.keyboard.press('Tab')
    }
    const framesAtEnd = await frames(page)
    const seconds = (Date.now() - began) / 1000
    await page.waitForTimeout(500)
    const trace = tracePath ? await browser.stopTracing() : null
    const {
      longTasks,
      events,
      frames: longFrames,
      scripts,
    } = await page.evaluate(() => window.__bench)
    const state = await page.evaluate(() =>
      [...document.querySelectorAll('[data-3d-state]')].map((e) => e.getAttribute('data-3d-state')),
    )
    // A baseline with a slot drawn, or a 3D row without one, would not measure what it says.
    if (target.without3d && state.some((s) => s !== 'unsupported'))
      throw new Error(`${target.name}: a slot left its poster without WebGL (${state.join(', ')})`)
    if (!target.without3d && !target.baseline && state.length && !state.includes('live'))
      console.warn(`${target.name}, ${path}: no slot drew in this run (${state.join(', ')})`)
    const after = longTasks.filter((t) => t.start >= start)
    const ran = scripts.filter((r) => r.start >= start)
    const inputs = events.filter((e) => e.start >= start && e.interaction > 0)
    if (trace) {
      writeFileSync(tracePath, trace)
      const slowest = inputs.reduce((a, e) => (e.duration > (a?.duration ?? 0) ? e : a), null)
      return { trace: traceSummary(JSON.parse(trace.toString()), zero, slowest) }
    }
    return {
      longTasks: after.length,
      blockingMs: Math.round(after.reduce((a, t) => a + Math.max(0, t.duration - 50), 0)),
      longestMs: Math.round(Math.max(0, ...after.map((t) => t.duration))),
      longestFrameMs: Math.round(
        Math.max(0, ...longFrames.filter((f) => f.start >= start).map((f) => f.duration)),
      ),
      longestScriptMs: Math.round(Math.max(0, ...ran.map((r) => r.duration))),
      longestScript: ran.reduce((a, r) => (r.duration > (a?.duration ?? 0) ? r : a), null)?.invoker,
      slowestInputMs: Math.round(Math.max(0, ...inputs.map((e) => e.duration))),
      slowestInput: inputs.reduce((a, e) => (e.duration > (a?.duration ?? 0) ? e : a), null),
      fps:
        framesAtEnd === null ? null : Number(((framesAtEnd - framesAtStart) / seconds).toFixed(1)),
      renderer: await page.evaluate(() => window.__facet3d?.path ?? 'main'),
      states: state,
    }
  } finally {
    await context.close()
  }
}

const median = (list) => {
  const values = list.filter((v) => v !== null).sort((a, b) => a - b)
  return values.length ? values[Math.floor(values.length / 2)] : null
}

async function main() {
  const stop = await startServer()
  let browser
  const viewer = '[data-slice-type="model_viewer"]'
  const wanted = new Set(args.pages.split(',').filter(Boolean))
  const all = [
    { name: 'home', path: '/en-us' },
    { name: 'showcase', path: '/en-us/showcase' },
    // The showcase's own model viewer (a GLB), scrolled to, as a project page's would be.
    { name: 'showcase viewer', path: '/en-us/showcase', scrollTo: viewer },
    { name: 'project', path: null, scrollTo: viewer },
  ]
  for (const name of wanted)
    if (!all.some((t) => t.name === name))
      throw new Error(`--pages: '${name}' is not one of ${all.map((t) => t.name).join(', ')}`)
  const results = []
  try {
    browser = await chromium.launch({
      headless: !args.headed,
      executablePath: CHROME_PATH,
      args: CHROME_ARGS,
    })
    const targets = all.filter((t) => wanted.has(t.name))
    for (const target of targets) target.path ??= await projectWithViewer()
    if (args.trace) {
      const { trace } = await visit(browser, targets[0], PATHS[0], args.trace)
      console.log(`${targets[0].name}, ${PATHS[0].name}: trace in ${args.trace}`)
      console.log(JSON.stringify(trace, null, 2))
      return
    }
    const measured = new Set()
    for (const entry of PATHS) {
      // The baselines have no 3D, so the path does not matter: each is measured once per CPU
      // rate, the contact page first and each page without 3D just before its first 3D row.
      const rows = []
      for (const target of [CONTACT, ...targets.flatMap((t) => [{ ...t, without3d: true }, t])]) {
        const key = `${target.name}${target.without3d ? ' without 3D' : ''}@${entry.cpu}`
        if (target.baseline || target.without3d) {
          if (measured.has(key)) continue
          measured.add(key)
        }
        rows.push(target)
      }
      for (const target of rows) {
        const noThree = target.baseline || target.without3d
        const load = os.loadavg()[0]
        const runs = []
        for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, target, entry))
        const figures = {
          label: args.label,
          page: target.without3d ? `${target.name} without 3D` : target.name,
          url: target.path,
          path: entry.motion ? entry.path : `${entry.path}, still`,
          cpuSlowdown: entry.cpu,
          blockingMs: median(runs.map((r) => r.blockingMs)),
          longestMs: median(runs.map((r) => r.longestMs)),
          longestFrameMs: median(runs.map((r) => r.longestFrameMs)),
          longestScriptMs: median(runs.map((r) => r.longestScriptMs)),
          longTasks: median(runs.map((r) => r.longTasks)),
          slowestInputMs: median(runs.map((r) => r.slowestInputMs)),
          fps: median(runs.map((r) => r.fps)),
          loadAverage: { start: load, end: os.loadavg()[0] },
          runs,
        }
        // The worker path has DESIGN.md's budget; the fallback at full speed, its task limit (the
        // longest script of every run, not the median: the setup's own work, split into tasks;
        // a long task's rest is the browser drawing, see observe()); the fallback slowed, none.
        figures.withinBudget = noThree
          ? null
          : entry.path === 'worker'
            ? figures.blockingMs <= BUDGET.blockingMs &&
              figures.slowestInputMs <= BUDGET.slowestInputMs
            : entry.cpu === 1
              ? runs.every((r) => r.longestScriptMs < FALLBACK_TASK_MS)
              : null
        if (noThree) figures.path = '-'
        // Within 30 ms of each baseline (the same page without 3D, the contact page), at the same
        // CPU rate, in this run.
        const over = []
        for (const [key, page, label] of [
          ['SamePage', `${target.name} without 3D`, 'the page without 3D'],
          ['Contact', CONTACT.name, 'contact'],
        ]) {
          const baseline = results.find((r) => r.page === page && r.cpuSlowdown === entry.cpu)
          if (noThree || !baseline) continue
          const ms = (figures[`over${key}Ms`] = figures.slowestInputMs - baseline.slowestInputMs)
          const within = (figures[`within${key}`] = ms <= BUDGET.overContactMs)
          over.push(`${ms >= 0 ? '+' : ''}${ms} ms on ${label} ${within ? '✓' : '✗'}`)
        }
        const verdict = { true: '✓', false: '✗', null: '' }[figures.withinBudget]
        console.log(
          `${args.label} ${entry.name.padEnd(9)} ${figures.page.padEnd(26)} blocking ${figures.blockingMs} ms, longest ${figures.longestMs} ms (frame ${figures.longestFrameMs}, script ${figures.longestScriptMs}), slowest input ${figures.slowestInputMs} ms${over.length ? ` (${over.join(', ')})` : ''}, ${figures.fps ?? '-'} fps (load ${load.toFixed(2)}) ${verdict}`,
        )
        results.push(figures)
      }
    }
  } finally {
    await browser?.close()
    stop()
  }
  const report = {
    date: new Date().toISOString(),
    environment: `${args.headed ? 'Chromium in a window (Xvfb)' : 'headless Chromium'} (SwiftShader WebGL), ${DEVICE.viewport.width}×${DEVICE.viewport.height} at ${DEVICE.deviceScaleFactor}×, CPU ${CPU_SLOWDOWN}× slower unless @1x, ${os.cpus().length} cores`,
    protocol: `load, ${QUIET_MS} ms without a long task, one wheel scroll, Tab every ${KEY_EVERY_MS} ms for ${KEYS_FOR_MS / 1000} s; median of ${RUNS}`,
    budget: { ...BUDGET, fallbackTaskMs: FALLBACK_TASK_MS },
    results,
  }
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`)
}

runBenchmark(main)
