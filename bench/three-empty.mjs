// `node bench/three-empty.mjs --origin http://127.0.0.1:3600`: looks for an empty 3D slot, the way
// a visitor would meet one. Each run, in a fresh browser context (a first visit): a 412 × 823
// window (no mobile emulation, pixel ratio 1), the home page loaded, a wait, one scroll of 10 px
// (which asks for the 3D), a wait of 8 s, then the hero's slot read back: is the poster gone, and
// is the scene on screen? "Empty" is the poster faded with nothing of the canvas in the slot (its
// pixels the same with the canvas hidden). Prints one line per run and a summary; saves a
// screenshot of every empty run. Needs a running production server (no server is started here).
//   --origin URL             the server (required)
//   --runs 10                runs
//   --page /en-us            the page; its first 3D slot is read
//   --motion no-preference   or `reduce` (prefers-reduced-motion)
//   --cpu 1                  CPU slowdown through CDP (Emulation.setCPUThrottlingRate)
//   --scroll-at 1000         ms after `load` of the scroll; `500:300` starts at 500 and moves the
//                            scroll 300 ms later each run (wrapping after --scroll-until)
//   --scroll-until 3200      the latest scroll moment of a sweep
//   --scroll wheel           `wheel` (the mouse over the page) or `script` (window.scrollBy)
//   --settle 8000            ms after the scroll before the slot is read
//   --burners 0              busy loops (one node process each) running during the runs, to make
//                            a busy machine
//   --debug                  adds ?debug3d (the renderer's debug hook; its path is printed)
//   --trace                  prints, for each run, the messages between the page and a worker
//                            renderer (type, time after load) and the slot's state changes
//   --out /tmp/three-empty   where screenshots of empty runs go
// A benchmark-like tool: run it under the machine's heavy-work lock.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import sharp from 'sharp'
import { CHROME_ARGS, CHROME_PATH, runBenchmark } from './lib/chromium.mjs'

const { values: args } = parseArgs({
  options: {
    origin: { type: 'string' },
    runs: { type: 'string', default: '10' },
    page: { type: 'string', default: '/en-us' },
    motion: { type: 'string', default: 'no-preference' },
    cpu: { type: 'string', default: '1' },
    'scroll-at': { type: 'string', default: '1000' },
    'scroll-until': { type: 'string', default: '3200' },
    scroll: { type: 'string', default: 'wheel' },
    settle: { type: 'string', default: '8000' },
    burners: { type: 'string', default: '0' },
    debug: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(os.tmpdir(), 'three-empty') },
  },
})

/** A whole number from an option, or a clear error naming it. */
function whole(name, min = 0) {
  const value = Number(args[name])
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number ≥ ${min}, not '${args[name]}'`)
  return value
}

if (!args.origin)
  throw new Error('--origin is required (a running server, e.g. http://127.0.0.1:3600)')
if (!['no-preference', 'reduce'].includes(args.motion))
  throw new Error(`--motion must be no-preference or reduce, not '${args.motion}'`)
if (!['wheel', 'script'].includes(args.scroll))
  throw new Error(`--scroll must be wheel or script, not '${args.scroll}'`)
const RUNS = whole('runs', 1)
const CPU = Number(args.cpu)
if (!(CPU >= 1)) throw new Error(`--cpu must be a slowdown ≥ 1, not '${args.cpu}'`)
const [first, step = '0'] = args['scroll-at'].split(':')
const SCROLL = { first: Number(first), step: Number(step), until: whole('scroll-until') }
if (![SCROLL.first, SCROLL.step].every((n) => Number.isInteger(n) && n >= 0))
  throw new Error(`--scroll-at must be ms or ms:step, not '${args['scroll-at']}'`)
const SETTLE = whole('settle')
const BURNERS = whole('burners')
const VIEWPORT = { width: 412, height: 823 }

/** The scroll moment of run `run` (0-based). */
function scrollAt(run) {
  if (!SCROLL.step) return SCROLL.first
  const span = Math.floor((SCROLL.until - SCROLL.first) / SCROLL.step) + 1
  return SCROLL.first + (run % span) * SCROLL.step
}

/** The share of pixels that differ (by more than 30 over RGB) between two read-backs. */
function changedShare(a, b) {
  let changed = 0
  for (let i = 0; i < a.length; i += 3) {
    const d = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])
    if (d > 30) changed++
  }
  return changed / (a.length / 3)
}

async function raw(png) {
  return (await sharp(png).removeAlpha().raw().toBuffer()).subarray(0)
}

/** What the hero's slot shows: its state, the poster's opacity, the canvas's share of it. */
async function readSlot(page) {
  const root = page.locator('[data-3d-state]').first()
  const stage = root.locator('[data-3d-stage]')
  const state = await root.getAttribute('data-3d-state')
  const posterOpacity = Number(
    await stage
      .locator(':scope > div')
      .first()
      .evaluate((e) => getComputedStyle(e).opacity),
  )
  const box = await stage.boundingBox()
  const left = Math.max(0, box.x)
  const top = Math.max(0, box.y)
  const clip = {
    x: left,
    y: top,
    width: Math.min(box.x + box.width, VIEWPORT.width) - left,
    height: Math.min(box.y + box.height, VIEWPORT.height) - top,
  }
  const seenPng = await page.screenshot({ clip, animations: 'allow' })
  const canvases = page.locator('canvas')
  const canvasCount = await canvases.count()
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
  const barePng = await page.screenshot({ clip, animations: 'allow' })
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = '')))
  const share = changedShare(await raw(seenPng), await raw(barePng))
  const hook = await page.evaluate(() => {
    const h = window.__facet3d
    return h ? { path: h.path, frames: h.frames, seq: h.seq, sent: h.sent, tier: h.tier } : null
  })
  return { state, posterOpacity, share, canvasCount, hook }
}

/** In the page: logs the bridge's messages both ways and the slots' state changes. */
const TRACE = () => {
  const log = (window.__trace = [])
  const t = () => Math.round(performance.now())
  const Original = window.Worker
  window.Worker = class extends Original {
    constructor(...a) {
      super(...a)
      log.push(`${t()}:worker`)
      this.addEventListener('message', (e) => {
        const m = e.data
        if (m.type === 'trace') log.push(`${t()}:${m.m}`)
        else if (m.type !== 'stats')
          log.push(
            `${t()}:<${m.type}${m.ids ? `(${m.ids.length}${m.seq !== undefined ? `@${m.seq}` : ''})` : ''}`,
          )
      })
    }
    postMessage(m, ...rest) {
      log.push(
        `${t()}:>${m.type}${m.seq !== undefined ? `#${m.seq}` : ''}${m.slots ? `(${m.slots.map((s) => (s.visible ? 'v' : 'h')).join('')})` : ''}`,
      )
      return super.postMessage(m, ...rest)
    }
  }
  addEventListener('load', () => log.push(`${t()}:load`))
  addEventListener('scroll', () => log.push(`${t()}:scroll`), { once: true, capture: true })
  new MutationObserver((records) => {
    for (const r of records)
      if (
        r.attributeName === 'data-3d-state' &&
        r.target === document.querySelector('[data-3d-state]')
      )
        log.push(`${t()}:${r.target.getAttribute('data-3d-state')}`)
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-3d-state'] })
}

async function oneRun(browser, run) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    isMobile: false,
    reducedMotion: args.motion,
  })
  const page = await context.newPage()
  const warnings = []
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text())
  })
  page.on('pageerror', (e) => warnings.push(`pageerror: ${e.message}`))
  if (args.trace) await page.addInitScript(TRACE)
  if (CPU > 1) {
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  }
  const url = `${args.origin}${args.page}${args.debug ? '?debug3d' : ''}`
  await page.goto(url, { waitUntil: 'load' })
  const at = scrollAt(run)
  await page.waitForTimeout(at)
  if (args.scroll === 'wheel') {
    await page.mouse.move(200, 400)
    await page.mouse.wheel(0, 10)
  } else await page.evaluate(() => window.scrollBy(0, 10))
  await page.waitForTimeout(SETTLE)
  const seen = await readSlot(page)
  seen.trace = args.trace ? await page.evaluate(() => window.__trace.join(' ')) : ''
  const faded = seen.posterOpacity < 0.05
  const empty = faded && seen.share < 0.01
  let shot = ''
  if (empty) {
    mkdirSync(args.out, { recursive: true })
    shot = path.join(args.out, `empty-run${run + 1}-${Date.now()}.png`)
    await page.screenshot({ path: shot })
  }
  await context.close()
  return { run: run + 1, at, ...seen, faded, empty, shot, warnings }
}

async function main() {
  const burners = Array.from({ length: BURNERS }, () =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }),
  )
  const stopBurners = () => burners.forEach((b) => b.kill())
  process.on('exit', stopBurners)
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS })
  const results = []
  const loads = []
  try {
    console.log(
      `origin ${args.origin}${args.page}: ${RUNS} runs, motion ${args.motion}, CPU ${CPU}×, ` +
        `scroll (${args.scroll}) ${args['scroll-at']} ms after load, ${BURNERS} burners`,
    )
    for (let run = 0; run < RUNS; run++) {
      const r = await oneRun(browser, run)
      loads.push(os.loadavg()[0])
      results.push(r)
      console.log(
        `run ${String(r.run).padStart(2)} scroll@${r.at}ms state=${r.state} poster=${r.posterOpacity.toFixed(2)} ` +
          `canvas share=${r.share.toFixed(3)} canvases=${r.canvasCount}` +
          (r.hook
            ? ` path=${r.hook.path} tier=${r.hook.tier} frames=${r.hook.frames} seq=${r.hook.seq}/${r.hook.sent}`
            : '') +
          (r.empty ? `  EMPTY -> ${r.shot}` : '') +
          (r.warnings.length ? `  [${r.warnings.join(' | ').slice(0, 200)}]` : '') +
          ` load1=${os.loadavg()[0].toFixed(2)}`,
      )
      if (r.trace) console.log(`  ${r.trace}`)
    }
  } finally {
    await browser.close()
    stopBurners()
  }
  const empty = results.filter((r) => r.empty)
  console.log(
    `empty: ${empty.length}/${RUNS}` +
      (empty.length ? ` (runs ${empty.map((r) => `${r.run}@${r.at}ms`).join(', ')})` : '') +
      `; poster still showing: ${results.filter((r) => !r.faded).length}; ` +
      `load average (1 min) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
  )
}

runBenchmark(main)
