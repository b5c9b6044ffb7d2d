// `npm run bench`: builds if needed, starts the production server, and measures every page and
// service beside a baseline. Writes bench/report.md, bench/report.json and bench/chart.svg.
// Measured figures live here and in the report, never in tests (times flake; bytes do not).
import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import path from 'node:path'
import os from 'node:os'
import autocannon from 'autocannon'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import * as chromeLauncher from 'chrome-launcher'
import { buildIfNeeded } from '../scripts/build-if-needed.mjs'
import { measureBundles } from '../scripts/lib/bundles.mjs'
import { measureImageBytes, PHONE, SETTLE_MS } from './images.mjs'
import { CHROME_ARGS, CHROME_PATH } from './lib/chromium.mjs'
import { scaleSection } from './lib/scale-report.mjs'
import { modelsSection } from './lib/models-report.mjs'

const { values: args } = parseArgs({
  options: {
    // Lighthouse's own advice: the median of five runs is about twice as stable as one run.
    runs: { type: 'string', default: '5' },
    'server-seconds': { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
    'skip-lighthouse': { type: 'boolean', default: false },
    // Another server (say, the previous build) whose image bytes are measured in the same run.
    'images-before': { type: 'string' },
    // Only the server figures, printed; the report is left as it is.
    'server-only': { type: 'boolean', default: false },
    // Another production server entry to measure on the same build in the same run (an older
    // server/index.mjs checked out elsewhere, say): the "before" of a before/after.
    'compare-server': { type: 'string' },
    // Another site (say, the build before a 3D change) whose interaction figures are measured in
    // the same run, on its main-thread renderer, beside this build's.
    'interaction-before': { type: 'string' },
  },
})
const RUNS = args.quick ? 1 : Number(args.runs)
const SERVER_SECONDS = args.quick ? 3 : Number(args['server-seconds'])
const PORT = Number(process.env.BENCH_PORT || 3400)
const ORIGIN = `http://127.0.0.1:${PORT}`
const CHROME = CHROME_PATH
// Lighthouse starts Chromium itself (chrome-launcher): headless is one more flag.
const CHROME_FLAGS = ['--headless=new', ...CHROME_ARGS]

/** The DESIGN.md budgets. */
const BUDGET = {
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 1800,
  tbtMs: 150,
  cls: 0.02,
  totalBytes: 1.5 * 1024 * 1024,
  ownJsGzip: 25 * 1024,
  imageBytes: 150 * 1024,
}

process.env.NEXT_TELEMETRY_DISABLED = '1'
// SITE_URL defaults to the bench's own origin (Lighthouse's SEO audits read the canonical URLs);
// set it to reuse a build made with another one: the server itself works under any host.
const env = {
  ...process.env,
  SITE_URL: process.env.SITE_URL || ORIGIN,
  PORT: String(PORT),
  LISTEN_HOST: '127.0.0.1',
}
buildIfNeeded(env)

/** Starts a server on PORT in its own process group; `stop()` ends it and waits. */
function startServer(args) {
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      /* already stopped */
    }
    await exited
  }
  process.on('exit', () => {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      /* already stopped */
    }
  })
  return { stop }
}

let server = startServer(['server/index.mjs'])

async function waitFor(url, ms = 60_000) {
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

/** Finds the first link under `prefix` on a page, so the bench follows the real content. */
async function firstLink(pagePath, prefix) {
  try {
    const html = await (await fetch(`${ORIGIN}${pagePath}`)).text()
    const match = [...html.matchAll(/href="([^"#?]+)"/g)]
      .map((m) => m[1])
      .find((href) => href.startsWith(prefix) && href !== prefix)
    return match ?? null
  } catch {
    return null
  }
}

/** The first project page whose model viewer has a model (a live viewer), else the first one. */
async function firstProjectWithViewer() {
  const html = await (await fetch(`${ORIGIN}/en-us/work`)).text().catch(() => '')
  const links = [
    ...new Set([...html.matchAll(/href="(\/en-us\/work\/[^"#?]+)"/g)].map((m) => m[1])),
  ]
  for (const link of links) {
    const page = await (await fetch(`${ORIGIN}${link}`)).text().catch(() => '')
    if (page.includes('data-3d-kind="viewer"')) return link
  }
  return links[0] ?? null
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/**
 * Insight audits that Lighthouse 13 cannot compute on Node 20 (they call iterator helpers, which
 * arrive in Node 22). They carry no score and no metric, so they are listed once, not per run.
 */
const NODE20_INSIGHT_ERROR = /is not a function/
/** A run whose trace was incomplete (NO_NAVSTART and kin) is made again, this many times at most. */
const RETRIES = 3

async function runLighthouse(url, formFactor) {
  const results = []
  let retriesLeft = RETRIES
  const incomplete = []
  for (let i = 0; i < RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS })
    try {
      const config = formFactor === 'desktop' ? desktopConfig : undefined
      const { lhr } = await lighthouse(
        url,
        { port: chrome.port, output: 'json', logLevel: 'error' },
        config,
      )
      const scripts = lhr.audits['resource-summary']?.details?.items?.find(
        (item) => item.resourceType === 'script',
      )
      const runResult = {
        // null, not 0, when Lighthouse could not compute a metric (it then has no score).
        performance:
          lhr.categories.performance?.score == null
            ? null
            : Math.round(lhr.categories.performance.score * 100),
        metricErrors: Object.values(lhr.audits)
          .filter((a) => a.scoreDisplayMode === 'error')
          .filter((a) => !(a.id.endsWith('-insight') && NODE20_INSIGHT_ERROR.test(a.errorMessage)))
          .map((a) => `${a.id}: ${a.errorMessage}`),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        bestPractices: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
        seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
        totalBytes: Math.round(lhr.audits['total-byte-weight']?.numericValue ?? NaN),
        jsBytes: Math.round(scripts?.transferSize ?? 0),
        failing: Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
          .map((a) => a.id),
        runtimeError: lhr.runtimeError?.message,
      }
      const complete =
        runResult.performance !== null &&
        !Number.isNaN(runResult.lcpMs) &&
        !Number.isNaN(runResult.tbtMs)
      if (complete || retriesLeft === 0) results.push(runResult)
      else {
        // Measure again rather than take the median of fewer runs.
        incomplete.push(runResult.runtimeError ?? runResult.metricErrors[0] ?? 'no score')
        retriesLeft -= 1
        i -= 1
      }
    } finally {
      await chrome.kill()
    }
  }
  // The median run by performance score, with each metric's own median beside it.
  const keys = [
    'performance',
    'accessibility',
    'bestPractices',
    'seo',
    'lcpMs',
    'tbtMs',
    'cls',
    'totalBytes',
    'jsBytes',
  ]
  const out = Object.fromEntries(
    keys.map((k) => [
      k,
      median(results.map((r) => r[k]).filter((v) => v !== null && !Number.isNaN(v))) ?? null,
    ]),
  )
  out.failing = [...new Set(results.flatMap((r) => r.failing))]
  out.metricErrors = [...new Set(results.flatMap((r) => r.metricErrors))]
  out.runs = results.length
  out.remeasured = incomplete
  // Every run's own figures, so the spread behind each median can be seen.
  out.perRun = results.map(({ performance, lcpMs, tbtMs, cls }) => ({
    performance,
    lcpMs,
    tbtMs,
    cls,
  }))
  return out
}

async function cannon(url) {
  const result = await autocannon({ url, connections: 50, duration: SERVER_SECONDS })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

/** The same HTML served from memory by Node's http module: the floor any server is measured by. */
async function staticBaseline(html) {
  const body = Buffer.from(html)
  const srv = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': body.length,
    })
    res.end(body)
  })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address()
  try {
    return await cannon(`http://127.0.0.1:${port}/`)
  } finally {
    srv.close()
  }
}

function runScript(name, scriptArgs = [], origin = ORIGIN) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  if (!pkg.scripts?.[name]) return { skipped: `no ${name} script` }
  const result = spawnSync('npm', ['run', '-s', name, '--', ...scriptArgs], {
    stdio: 'inherit',
    env: { ...env, BENCH_ORIGIN: origin },
  })
  return { exitCode: result.status }
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null
}

const startedAt = new Date().toISOString()
// Lighthouse's simulated throttling scales the tasks it observes: a busy machine inflates TBT.
const loadAtStart = os.loadavg()[0]
await waitFor(`${ORIGIN}/en-us`)

const pages = [
  { name: 'home', path: '/en-us' },
  // A project page with a live model viewer if the content has one, else the first project.
  { name: 'project', path: await firstProjectWithViewer() },
  // Every 3D variation on one page: both heroes (procedural, GLB) and the model viewer.
  {
    name: '3D showcase',
    path: (await fetch(`${ORIGIN}/en-us/showcase`)).ok ? '/en-us/showcase' : null,
  },
  { name: 'post', path: await firstLink('/en-us/journal', '/en-us/journal/') },
  { name: 'contact', path: (await fetch(`${ORIGIN}/en-us/contact`)).ok ? '/en-us/contact' : null },
]

const lighthouseResults = []
if (!args['skip-lighthouse'] && !args['server-only']) {
  for (const page of pages) {
    if (!page.path) {
      lighthouseResults.push({ page: page.name, path: null, note: 'no such page in the content' })
      continue
    }
    for (const formFactor of ['mobile', 'desktop']) {
      console.log(`lighthouse ${formFactor} ${page.path} (${RUNS} runs)…`)
      lighthouseResults.push({
        page: page.name,
        path: page.path,
        formFactor,
        ...(await runLighthouse(`${ORIGIN}${page.path}`, formFactor)),
      })
    }
  }
}

const imagePaths = pages.filter((p) => ['home', 'project'].includes(p.name) && p.path)
const imageRun = async (origin) =>
  (
    await measureImageBytes(
      origin,
      imagePaths.map((p) => p.path),
      { chromePath: CHROME },
    )
  ).map((r, i) => ({ page: imagePaths[i].name, ...r }))
// The server-only figures skip it, as they skip Lighthouse.
if (!args['server-only']) console.log('image bytes on a phone (home, project)…')
const images = args['server-only']
  ? null
  : {
      after: await imageRun(ORIGIN),
      before: args['images-before'] ? await imageRun(args['images-before']) : null,
      beforeOrigin: args['images-before'] ?? null,
    }

console.log(
  `autocannon: npm start vs next start vs a static server, ${SERVER_SECONDS} s each, 50 connections…`,
)
const html = await (await fetch(`${ORIGIN}/en-us`)).text()
const nextServer = await cannon(`${ORIGIN}/en-us`)
// The interaction bench measures this server (BENCH_ORIGIN), before it stops.
console.log('interaction bench (4× CPU, one scroll, Tab every 250 ms)…')
const interactionRun = runScript('bench:interaction', ['--label', 'after'])
const beforeFile = path.join('bench', 'interaction-before.json')
const interactionBefore = args['interaction-before']
  ? runScript(
      'bench:interaction',
      ['--label', 'before', '--paths', 'main,main@1x', '--out', beforeFile],
      args['interaction-before'],
    )
  : null
await server.stop()
/** Another server on the same build, measured on the same page after a warm-up request. */
async function measureOther(args) {
  server = startServer(args)
  try {
    await waitFor(`${ORIGIN}/en-us`)
    return await cannon(`${ORIGIN}/en-us`)
  } finally {
    await server.stop()
  }
}
const nextStart = await measureOther([
  'node_modules/next/dist/bin/next',
  'start',
  '-p',
  String(PORT),
  '-H',
  '127.0.0.1',
])
const compared = args['compare-server'] ? await measureOther([args['compare-server']]) : undefined
const baseline = await staticBaseline(html)
const ratio = (a, b) => Number((a.requestsPerSecond / b.requestsPerSecond).toFixed(3))
const serverTable = `| server | req/s | p99 ms | non-2xx | errors |
|---|---|---|---|---|
| site (\`npm start\`) | ${nextServer.requestsPerSecond} | ${nextServer.p99Ms} | ${nextServer.non2xx} | ${nextServer.errors} |
| \`next start\` (same build) | ${nextStart.requestsPerSecond} | ${nextStart.p99Ms} | ${nextStart.non2xx} | ${nextStart.errors} |
${compared ? `| \`${args['compare-server']}\` (compared) | ${compared.requestsPerSecond} | ${compared.p99Ms} | ${compared.non2xx} | ${compared.errors} |\n` : ''}| static (node:http, same HTML from memory) | ${baseline.requestsPerSecond} | ${baseline.p99Ms} | ${baseline.non2xx} | ${baseline.errors} |

\`npm start\` ÷ \`next start\`: **${ratio(nextServer, nextStart)}** (budget ≥ 1, p99 ≤ 250 ms); \`npm start\` ÷ static: **${ratio(nextServer, baseline)}**${compared ? `; compared ÷ \`next start\`: **${ratio(compared, nextStart)}**` : ''}.`
if (args['server-only']) {
  console.log(serverTable)
  process.exit(0)
}

const bundles = measureBundles()
console.log('content API bench…')
const contentRun = runScript('bench:content')
console.log('3D bench…')
const threeRun = runScript('bench:three')

const report = {
  startedAt,
  loadAverage: { start: loadAtStart, end: os.loadavg()[0] },
  machine: { node: process.version, chromium: CHROME },
  budgets: BUDGET,
  lighthouse: lighthouseResults,
  images,
  bundles,
  server: {
    page: '/en-us',
    seconds: SERVER_SECONDS,
    connections: 50,
    next: nextServer,
    nextStart,
    ...(compared ? { compared: { entry: args['compare-server'], ...compared } } : {}),
    static: baseline,
    ratio: ratio(nextServer, baseline),
    ratioToNextStart: ratio(nextServer, nextStart),
  },
  content: { run: contentRun, figures: readJson('bench/content.json') },
  three: { run: threeRun, figures: readJson('bench/three.json') },
  interaction: {
    run: interactionRun,
    figures: readJson('bench/interaction.json'),
    before: interactionBefore
      ? { origin: args['interaction-before'], figures: readJson(beforeFile) }
      : null,
  },
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const mark = (ok) => (ok ? '✓' : '✗')
const lhRows = lighthouseResults
  .filter((r) => r.formFactor)
  .map((r) => {
    const ok =
      r.formFactor !== 'mobile' ||
      (r.performance >= BUDGET.performance &&
        r.accessibility >= BUDGET.accessibility &&
        r.bestPractices >= BUDGET.bestPractices &&
        r.seo >= BUDGET.seo &&
        r.lcpMs <= BUDGET.lcpMs &&
        r.tbtMs <= BUDGET.tbtMs &&
        r.cls <= BUDGET.cls &&
        r.totalBytes <= BUDGET.totalBytes)
    return `| ${r.page} \`${r.path}\` | ${r.formFactor} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} | ${kb(r.totalBytes)} | ${kb(r.jsBytes)} | ${mark(ok)} |`
  })
const md = `# Facet benchmark report

Made by \`npm run bench\` on ${startedAt} (Node ${process.version}, Chromium at ${CHROME}, ${os.cpus().length} cores; 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end).
Lighthouse: median of ${RUNS} run(s) per page and form factor, on the production build (\`npm start\`: Next.js behind server/index.mjs).
Lighthouse 13 asks for Node 22: on Node ${process.versions.node.split('.')[0]} the insight audits that use iterator helpers fail; they carry no score and are left out of the errors below.
Budgets (DESIGN.md, mobile): Performance ≥ ${BUDGET.performance}; Accessibility, Best Practices, SEO 100; LCP ≤ ${BUDGET.lcpMs} ms; TBT ≤ ${BUDGET.tbtMs} ms; CLS ≤ ${BUDGET.cls}; total ≤ ${kb(BUDGET.totalBytes)}; images on a phone ≤ ${kb(BUDGET.imageBytes)} a page.

## Lighthouse

| page | form | perf | a11y | best | SEO | LCP ms | TBT ms | CLS | total | JS | budget |
|---|---|---|---|---|---|---|---|---|---|---|---|
${lhRows.join('\n') || '| (skipped) |'}
${lighthouseResults
  .filter((r) => r.failing?.length)
  .map((r) => `- ${r.page} ${r.formFactor}: failing audits: ${r.failing.join(', ')}`)
  .join('\n')}
${lighthouseResults
  .filter((r) => r.formFactor === 'mobile' && r.perRun?.length)
  .map(
    (r) =>
      `- ${r.page} mobile, each run (perf / LCP / TBT): ${r.perRun.map((x) => `${x.performance} / ${x.lcpMs} / ${x.tbtMs}`).join(', ')}`,
  )
  .join('\n')}
${lighthouseResults
  .filter((r) => r.remeasured?.length)
  .map(
    (r) =>
      `- ${r.page} ${r.formFactor}: ${r.remeasured.length} run(s) measured again after an incomplete trace (${[...new Set(r.remeasured)].join('; ')})`,
  )
  .join('\n')}
${lighthouseResults
  .filter((r) => r.metricErrors?.length)
  .map((r) => `- ${r.page} ${r.formFactor}: metric errors: ${r.metricErrors.join('; ')}`)
  .join('\n')}
${lighthouseResults
  .filter((r) => r.note)
  .map((r) => `- ${r.page}: ${r.note}`)
  .join('\n')}

## Images on a phone

Every image response's transfer on a ${PHONE.width} × ${PHONE.height} screen at ${PHONE.deviceScaleFactor}× (Lighthouse's mobile screen), from navigation to ${SETTLE_MS / 1000} s after the load event. Budget: ≤ ${kb(BUDGET.imageBytes)} a page.${images.before ? ` Before: ${images.beforeOrigin}, measured in the same run.` : ''}

| page | images | bytes | the same images as stored | ${images.before ? 'before | ' : ''}budget |
|---|---|---|---|---|${images.before ? '---|' : ''}
${images.after.map((r, i) => `| ${r.page} \`${r.path}\` | ${r.images.length} | ${kb(r.bytes)} | ${kb(r.asStoredBytes)} | ${images.before ? `${kb(images.before[i].bytes)} (${images.before[i].images.length} images) | ` : ''}${mark(r.bytes <= BUDGET.imageBytes)} |`).join('\n')}

${images.after.map((r) => `- ${r.page}: ${r.images.map((x) => `${kb(x.bytes)} ${x.type.replace('image/', '')} \`${x.url}\``).join(', ')}`).join('\n')}

## Bundles (gzipped, initial scripts of each prerendered page)

Framework floor (the not-found page): ${kb(bundles.floorGzip)}. 3D chunk(s), loaded on pages with 3D only after the visitor engages or the page has been quiet for 5 s: ${kb(bundles.threeGzip)}.

| route | own JS | total JS | 3D up front | budget (own ≤ ${kb(BUDGET.ownJsGzip)}) |
|---|---|---|---|---|
${bundles.pages.map((p) => `| \`${p.route}\` | ${kb(p.ownGzip)} | ${kb(p.totalGzip)} | ${p.loads3dUpFront ? 'yes' : 'no'} | ${mark(p.ownGzip <= BUDGET.ownJsGzip && !p.loads3dUpFront)} |`).join('\n')}

## Server (autocannon, ${SERVER_SECONDS} s, 50 connections, \`/en-us\`)

${serverTable}

## Content API

${report.content.figures ? '```json\n' + JSON.stringify(report.content.figures, null, 2) + '\n```' : `not measured (${report.content.run.skipped ?? 'bench:content failed'})`}

${scaleSection(readJson('bench/scale.json'))}
## Interaction after the scroll (4× CPU, mobile viewport)

${interactionSection(report.interaction)}

## 3D

${report.three.figures ? '```json\n' + JSON.stringify(report.three.figures, null, 2) + '\n```' : `not measured (${report.three.run.skipped ?? 'bench:three failed'})`}

${modelsSection(readJson('bench/models.json'))}
![chart](chart.svg)
`

writeFileSync(path.join('bench', 'report.json'), JSON.stringify(report, null, 2) + '\n')
writeFileSync(path.join('bench', 'report.md'), md)
writeFileSync(path.join('bench', 'chart.svg'), chart(report))
console.log(md)
process.exit(0)

/** The interaction bench's medians, one row per page and rendering path, against the budget. */
function interactionSection({ run, figures, before }) {
  if (!figures) return `not measured (${run.skipped ?? 'bench:interaction failed'})`
  const results = [...figures.results, ...(before?.figures?.results ?? [])]
  const signed = (ms) => (ms === undefined ? '–' : `${ms >= 0 ? '+' : ''}${ms}`)
  const rows = results.map(
    (r) =>
      `| ${r.label} | ${r.page} \`${r.url}\` | ${r.path} | ${r.cpuSlowdown ?? 4}× | ${r.blockingMs} | ${r.longestMs} | ${r.longestScriptMs ?? '–'} | ${r.longTasks} | ${r.slowestInputMs} | ${signed(r.overSamePageMs)} | ${signed(r.overContactMs)} | ${r.fps ?? '–'} | ${r.loadAverage.start.toFixed(2)} | ${r.withinBudget === null || r.withinBudget === undefined ? '–' : mark(r.withinBudget)} |`,
  )
  const beforeNote = before
    ? ` Rows labelled \`before\` measure ${before.origin} (the build before the worker renderer: the main thread is its only path) in the same run.`
    : ''
  return `${figures.protocol}. Budgets: on the worker path (DESIGN.md) blocking ≤ ${figures.budget.blockingMs} ms and slowest input ≤ ${figures.budget.slowestInputMs} ms (medians); on the main-thread fallback at full CPU speed (1×), no script of ${figures.budget.fallbackTaskMs} ms or more in any run, and on every page with 3D the slowest input within ${figures.budget.overContactMs ?? 30} ms of the same page's without 3D (a browser without WebGL: the posters stay; "vs same page") and of the contact page's (no 3D, "vs contact"), at the same CPU rate in the same run (longest script: the longest entry point in a long animation frame; a long task's rest is the browser's commit, which on this software compositor waits for the GPU process to draw a main-thread WebGL canvas).${beforeNote}

| label | page | path | CPU | blocking ms | longest task ms | longest script ms | long tasks | slowest input ms | vs same page ms | vs contact ms | 3D fps | load avg | budget |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`
}

/** A small bar chart: mobile Lighthouse performance per page, and req/s of both servers. */
function chart(r) {
  const bars = [
    ...r.lighthouse
      .filter((x) => x.formFactor === 'mobile')
      .map((x) => ({ label: `${x.page} perf (mobile)`, value: x.performance, max: 100 })),
    ...r.lighthouse
      .filter((x) => x.formFactor === 'desktop')
      .map((x) => ({ label: `${x.page} perf (desktop)`, value: x.performance, max: 100 })),
    {
      label: 'site req/s',
      value: r.server.next.requestsPerSecond,
      max: Math.max(r.server.next.requestsPerSecond, r.server.static.requestsPerSecond),
    },
    {
      label: 'static req/s',
      value: r.server.static.requestsPerSecond,
      max: Math.max(r.server.next.requestsPerSecond, r.server.static.requestsPerSecond),
    },
  ]
  const row = 28
  const width = 640
  const height = bars.length * row + 40
  const escape = (s) =>
    String(s).replace(/[<&>]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c])
  const rows = bars
    .map((b, i) => {
      const y = 30 + i * row
      const w = Math.max(1, Math.round(((b.value || 0) / (b.max || 1)) * 360))
      return `<text x="8" y="${y + 14}" font-size="12">${escape(b.label)}</text><rect x="200" y="${y}" width="${w}" height="18" fill="#3d3adb"/><text x="${206 + w}" y="${y + 14}" font-size="12">${escape(b.value)}</text>`
    })
    .join('\n')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" role="img" aria-label="Facet benchmark chart">
<rect width="100%" height="100%" fill="#fff"/><text x="8" y="18" font-size="14" font-weight="bold">Facet: Lighthouse performance and server throughput</text>
${rows}
</svg>
`
}
