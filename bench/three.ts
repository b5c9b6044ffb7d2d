// `npm run bench:three`: measures the 3D on the page with the 3D hero (default: the home page) on
// the production build, in headless Chromium with SwiftShader (software WebGL), and writes
// bench/three.json. Figures live here, never in tests.
//   --page /en-us          the page to measure
//   --seconds 5            how long to count frames
//   --skip-lighthouse      skip the Lighthouse runs (mobile, default config)
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Page } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'

const { values: args } = parseArgs({
  options: {
    page: { type: 'string', default: '/en-us' },
    seconds: { type: 'string', default: '5' },
    'skip-lighthouse': { type: 'boolean', default: false },
  },
})
const PORT = Number(process.env.BENCH_PORT || process.env.E2E_PORT || 3340)
const ORIGIN = `http://127.0.0.1:${PORT}`
const SECONDS = Number(args.seconds)

/** The DESIGN.md budgets that concern the 3D. */
const BUDGET = { performance: 95, lcpMs: 1800, tbtMs: 150, cls: 0.02, chunk3dGzipKb: 240 }

process.env.NEXT_TELEMETRY_DISABLED = '1'
const env = { ...process.env, SITE_URL: ORIGIN, PORT: String(PORT), LISTEN_HOST: '127.0.0.1' }
const build = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], {
  env,
  stdio: 'inherit',
})
if (build.status !== 0) throw new Error('bench:three: the build failed')

const server = spawn(
  process.execPath,
  ['node_modules/next/dist/bin/next', 'start', '-p', String(PORT), '-H', '127.0.0.1'],
  { env, stdio: 'ignore', detached: true },
)
const stopServer = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM')
  } catch {
    /* already stopped */
  }
}
process.on('exit', stopServer)

async function waitFor(url: string, ms = 60_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer within ${ms} ms`)
}

const gzipKb = (file: string) => Number((gzipSync(readFileSync(file)).length / 1024).toFixed(1))

/** The JS chunk files (under .next/static) that the page requested, by URL order. */
function chunkFiles(urls: string[]): string[] {
  return [
    ...new Set(
      urls
        .filter((u) => u.includes('/_next/static/') && u.endsWith('.js'))
        .map((u) =>
          path.join('.next', decodeURIComponent(new URL(u).pathname.slice('/_next'.length))),
        ),
    ),
  ]
}

type Hook = { frames: number; calls: number; triangles: number; dpr: number; tier: string }
const hook = (page: Page) =>
  page.evaluate(() => {
    const h = (window as unknown as { __facet3d?: Hook }).__facet3d
    return h
      ? { frames: h.frames, calls: h.calls, triangles: h.triangles, dpr: h.dpr, tier: h.tier }
      : null
  })

async function measureLive() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    // 1. Which JS the page loads without 3D (Save-Data holds it back), and which the 3D adds.
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
    const page = await context.newPage()
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', { value: { saveData: true } })
    })
    const urls: string[] = []
    page.on('request', (r) => urls.push(r.url()))
    await page.goto(`${ORIGIN}${args.page}?debug3d`, { waitUntil: 'load' })
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
    const pageChunks = chunkFiles(urls)
    urls.length = 0
    await page.locator('[data-3d-state="ask"] button').first().click()
    await page.locator('[data-3d-state="live"]').first().waitFor({ timeout: 60_000 })
    const threeChunks = chunkFiles(urls).filter((f) => !pageChunks.includes(f))
    await context.close()

    // 2. The live scene: frames, draw calls, triangles, long tasks, at a phone's size.
    const live = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 2,
    })
    const p = await live.newPage()
    await p.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[] }
      w.__longTasks = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration)
      }).observe({ type: 'longtask', buffered: true })
    })
    const start = Date.now()
    // `debug3d=motion`: play the motion SwiftShader would otherwise hold still (see useMayAnimate).
    await p.goto(`${ORIGIN}${args.page}?debug3d=motion`, { waitUntil: 'load' })
    await p.locator('[data-3d-state="live"]').first().waitFor({ timeout: 60_000 })
    const liveAfterMs = Date.now() - start
    const longTasks = await p.evaluate(() =>
      (window as unknown as { __longTasks: number[] }).__longTasks.slice(),
    )
    const before = (await hook(p))!
    await p.waitForTimeout(SECONDS * 1000)
    const after = (await hook(p))!
    const steady = (
      await p.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks)
    ).slice(longTasks.length)
    await live.close()

    return {
      liveAfterMs,
      fps: Number(((after.frames - before.frames) / SECONDS).toFixed(1)),
      drawCalls: after.calls,
      triangles: after.triangles,
      dprAfter: after.dpr,
      qualityTier: after.tier,
      // Long tasks from navigation until the scene is live (loading), then while it plays.
      longTasksWhilePlaying: {
        count: steady.length,
        totalMs: Math.round(steady.reduce((a, b) => a + b, 0)),
        blockingMs: Math.round(steady.reduce((a, b) => a + Math.max(0, b - 50), 0)),
      },
      longTasks: {
        count: longTasks.length,
        totalMs: Math.round(longTasks.reduce((a, b) => a + b, 0)),
        blockingMs: Math.round(longTasks.reduce((a, b) => a + Math.max(0, b - 50), 0)),
        longestMs: Math.round(Math.max(0, ...longTasks)),
      },
      pageJsGzipKb: Number(pageChunks.reduce((a, f) => a + gzipKb(f), 0).toFixed(1)),
      chunk3d: {
        files: threeChunks.map((f) => ({ file: path.basename(f), gzipKb: gzipKb(f) })),
        gzipKb: Number(threeChunks.reduce((a, f) => a + gzipKb(f), 0).toFixed(1)),
      },
    }
  } finally {
    await browser.close()
  }
}

/** Lighthouse, in its own Node process (see bench/three-lighthouse.mjs for why). */
function runLighthouse() {
  const run = spawnSync(
    process.execPath,
    ['bench/three-lighthouse.mjs', `${ORIGIN}${args.page}`, chromiumPath, ...chromiumArgs],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  if (run.status !== 0) throw new Error('bench:three: Lighthouse failed')
  return JSON.parse(run.stdout.trim().split('\n').pop()!)
}

async function main() {
  await waitFor(`${ORIGIN}${args.page}`)
  const live = await measureLive()
  const lh = args['skip-lighthouse'] ? null : await runLighthouse()
  const report = {
    date: new Date().toISOString(),
    page: args.page,
    environment: 'headless Chromium, SwiftShader (software WebGL 2), production build',
    ...live,
    lighthouse: lh,
    budget: BUDGET,
  }
  writeFileSync('bench/three.json', `${JSON.stringify(report, null, 2)}\n`)
  console.log(JSON.stringify(report, null, 2))
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(stopServer)
