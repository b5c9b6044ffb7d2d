// `npm run bench:lighthouse-3d -- [--origins label=URL[,label=URL…]] [--runs N] [--pages a,b]
// [--no-no-webgl]`: Lighthouse
// mobile (its default config: simulated throttling, a Moto G Power's screen) on every page kind,
// on each site named (say `before` and `after`: two builds served side by side, measured in turn
// in one run), median of N runs (3). Each page with 3D is measured again in a browser without
// WebGL in any realm (NO_WEBGL_FLAGS: the posters stay, and neither the warm-up nor a renderer
// starts), so that its LCP can be read beside the same page without 3D. Lighthouse never scrolls: what it sees of the 3D is what
// a page costs before the visitor engages (docs/3d.md). Writes bench/lighthouse-3d.json.
//
// Plain JavaScript, as bench/three-lighthouse.mjs says why.
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import lighthouse from 'lighthouse'
import * as chromeLauncher from 'chrome-launcher'
import { CHROME_ARGS, CHROME_PATH, runBenchmark } from './lib/chromium.mjs'

const { values } = parseArgs({
  options: {
    origins: { type: 'string', default: 'after=http://127.0.0.1:3000' },
    runs: { type: 'string', default: '3' },
    pages: { type: 'string' },
    'no-webgl': { type: 'boolean', default: true },
  },
  allowNegative: true,
})
const ORIGINS = values.origins.split(',').map((pair) => {
  const at = pair.indexOf('=')
  const label = pair.slice(0, at)
  const url = pair.slice(at + 1).replace(/\/$/, '')
  if (at < 1 || !URL.canParse(url)) throw new Error(`--origins: "${pair}" is not label=URL`)
  return { label, url }
})
const RUNS = Number(values.runs)
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: "${values.runs}" is not a count`)

/** Every page kind; `three`: the page has a 3D slot. */
const PAGES = [
  { name: 'home', path: '/en-us', three: true },
  { name: 'showcase', path: '/en-us/showcase', three: true },
  { name: 'project', path: '/en-us/work/kiln-museum', three: true },
  { name: 'work', path: '/en-us/work', three: false },
  { name: 'journal', path: '/en-us/journal', three: false },
  { name: 'post', path: '/en-us/journal/why-we-still-start-with-cardboard', three: false },
  { name: 'contact', path: '/en-us/contact', three: false },
]

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

/**
 * A browser without WebGL anywhere. `--disable-3d-apis` alone takes it from the page's canvases
 * but not from a worker's OffscreenCanvas: the probe worker still found WebGL there, and the
 * page warmed its renderer (515 KB fetched on the showcase, as with WebGL). Without the software
 * rasterizer (SwiftShader, the only GPU here) no realm gets a context.
 */
const NO_WEBGL_FLAGS = ['--disable-3d-apis', '--disable-software-rasterizer']
const launchFlags = (noWebGL) =>
  noWebGL
    ? [...CHROME_ARGS.filter((flag) => flag !== '--enable-unsafe-swiftshader'), ...NO_WEBGL_FLAGS]
    : CHROME_ARGS

/** How many times a run whose trace Lighthouse could not read (NO_NAVSTART, say) is retried. */
const RETRIES = 2

async function once(url, noWebGL) {
  for (let attempt = 0; ; attempt++) {
    const result = await lighthouseRun(url, noWebGL)
    if (!result.error) return result
    console.warn(`${url}: ${result.error}${attempt < RETRIES ? ', run again' : ''}`)
    if (attempt >= RETRIES) throw new Error(`${url}: Lighthouse failed ${RETRIES + 1} times`)
  }
}

async function lighthouseRun(url, noWebGL) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', ...launchFlags(noWebGL)],
  })
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' })
    // A run Lighthouse could not measure scores 0 with no metrics: not a figure of the page.
    if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
      cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
      totalBytes: Math.round(lhr.audits['total-byte-weight']?.numericValue ?? NaN),
      // What the warm-up fetched of the models before any scroll (none without WebGL).
      modelBytes: (lhr.audits['network-requests']?.details?.items ?? [])
        .filter((request) => /\.glb(\?|$)/.test(request.url))
        .reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    }
  } finally {
    await chrome.kill()
  }
}

async function main() {
  const rows = []
  const only = values.pages?.split(',')
  for (const name of only ?? [])
    if (!PAGES.some((page) => page.name === name))
      throw new Error(`--pages: no page "${name}" (${PAGES.map((p) => p.name).join(', ')})`)
  for (const page of PAGES.filter((p) => !only || only.includes(p.name)))
    for (const mode of page.three
      ? ['3D', ...(values['no-webgl'] ? ['no WebGL'] : [])]
      : ['as is']) {
      const runs = Object.fromEntries(ORIGINS.map(({ label }) => [label, []]))
      // Interleaved, so both sites meet the same load on the machine.
      for (let i = 0; i < RUNS; i++)
        for (const { label, url } of ORIGINS)
          runs[label].push(await once(`${url}${page.path}`, mode === 'no WebGL'))
      for (const { label } of ORIGINS) {
        const r = runs[label]
        const row = {
          page: page.name,
          mode,
          site: label,
          performance: median(r.map((x) => x.performance)),
          lcpMs: median(r.map((x) => x.lcpMs)),
          tbtMs: median(r.map((x) => x.tbtMs)),
          cls: median(r.map((x) => x.cls)),
          totalBytes: median(r.map((x) => x.totalBytes)),
          modelBytes: median(r.map((x) => x.modelBytes)),
          scores: r.map((x) => x.performance),
        }
        rows.push(row)
        console.log(
          `${page.name.padEnd(9)} ${mode.padEnd(8)} ${label.padEnd(7)} performance ${row.performance} (${row.scores.join('/')})  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  CLS ${row.cls}  ${(row.totalBytes / 1024).toFixed(0)} KB (models ${(row.modelBytes / 1024).toFixed(0)} KB)`,
        )
      }
    }
  // LCP with 3D beside the same page without WebGL, per site.
  const lcpGap = rows
    .filter((r) => r.mode === '3D')
    .map((r) => {
      const without = rows.find(
        (x) => x.page === r.page && x.site === r.site && x.mode === 'no WebGL',
      )
      if (!without) return null
      return {
        page: r.page,
        site: r.site,
        lcpMs: r.lcpMs,
        withoutMs: without.lcpMs,
        gapMs: r.lcpMs - without.lcpMs,
      }
    })
    .filter((g) => g !== null)
  for (const g of lcpGap)
    console.log(
      `LCP ${g.page} ${g.site}: ${g.lcpMs} ms with 3D, ${g.withoutMs} ms without (${g.gapMs >= 0 ? '+' : ''}${g.gapMs} ms)`,
    )
  writeFileSync(
    'bench/lighthouse-3d.json',
    JSON.stringify(
      {
        date: new Date().toISOString(),
        environment: `Lighthouse mobile (default config), headless Chromium, ${os.cpus().length} cores, load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
        runs: RUNS,
        origins: ORIGINS,
        rows,
        lcpGap,
      },
      null,
      2,
    ) + '\n',
  )
}

runBenchmark(main)
