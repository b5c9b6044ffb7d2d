// `npm run bench:models-corpus -- --origins label=URL[,label=URL…] [--runs N] [--models a,b]`:
// each model of the test corpus (tests/fixtures/model-corpus.ts) in the showcase's viewer, in
// place of its lamp, on each running site named (say `before` and `after`: two builds served side
// by side, measured in turn in one run), headless Chromium at a phone's viewport with the CPU
// slowed 4×. For each: whether it goes live and textured (the checker's red and green in the
// stage), the bytes fetched for it (the model, and the decoders from /3d-decoders/ as sent), the time from
// the visitor's scroll to the viewer (which starts the 3D) to the viewer live, and the longest
// main-thread task in that time. Median of N runs (3). Writes bench/models-corpus.json.
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import sharp from 'sharp'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { CORPUS, modelCorpus, textureShares } from '../tests/fixtures/model-corpus'

const { values } = parseArgs({
  options: {
    origins: { type: 'string' },
    runs: { type: 'string', default: '3' },
    models: { type: 'string' },
  },
})
if (!values.origins) {
  console.error(
    'bench:models-corpus: name the sites to measure, e.g. --origins after=http://127.0.0.1:3217 (each a running `npm start`)',
  )
  process.exit(2)
}
const ORIGINS = values.origins.split(',').map((pair) => {
  const [label, url] = pair.split('=')
  if (!label || !url || !URL.canParse(url)) throw new Error(`--origins: "${pair}" is not label=URL`)
  return { label, url }
})
const RUNS = Number(values.runs)
const NAMES = values.models ? values.models.split(',') : CORPUS
const CPU = 4
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true }

type Run = {
  state: string
  textured: boolean
  modelBytes: number
  decoderBytes: number
  decoders: string[]
  timeToLiveMs: number
  longestTaskMs: number
}

async function measure(browser: Browser, origin: string, body: Buffer): Promise<Run> {
  const context = await browser.newContext({ ...PHONE, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
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
  await page.route(
    (url) => url.pathname.endsWith('/models/lamp.glb'),
    (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }),
  )
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
  await page.goto(`${origin}/en-us/showcase?debug3d`, { waitUntil: 'load' })
  await page.waitForTimeout(1500)
  const result = await page.evaluate(
    () =>
      new Promise<{ state: string; start: number; end: number }>((resolve) => {
        const slot = document.querySelector('[data-3d-kind="viewer"]')!
        const start = performance.now()
        const settled = () => {
          const state = slot.getAttribute('data-3d-state')
          if (state === 'live' || state === 'error' || state === 'unsupported') {
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
  const tasks = await page.evaluate(
    () => (window as unknown as { __tasks: { start: number; duration: number }[] }).__tasks,
  )
  const longest = Math.max(
    0,
    ...tasks
      .filter((t) => t.start + t.duration >= result.start && t.start <= result.end)
      .map((t) => t.duration),
  )
  let textured = false
  if (result.state === 'live') {
    await page.waitForTimeout(500)
    const png = await page.locator('[data-3d-kind="viewer"] [data-3d-stage]').screenshot()
    const shares = textureShares(await sharp(png).removeAlpha().raw().toBuffer())
    textured = shares.red > 0.01 && shares.green > 0.01
  }
  await context.close()
  return {
    state: result.state,
    textured,
    modelBytes: body.length,
    decoderBytes: [...decoders.values()].reduce((a, b) => a + b, 0),
    decoders: [...decoders.keys()].sort(),
    timeToLiveMs: Math.round(result.end - result.start),
    longestTaskMs: Math.round(longest),
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main() {
  const corpus = await modelCorpus()
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const rows: Record<string, unknown>[] = []
  try {
    for (const name of NAMES) {
      const model = corpus.find((m) => m.name === name)
      if (!model)
        throw new Error(`--models: no model "${name}" in the corpus (${CORPUS.join(', ')})`)
      const body = Buffer.from(await import('node:fs').then((fs) => fs.readFileSync(model.file)))
      const runs: Record<string, Run[]> = {}
      // Interleaved, so both sites meet the same load on the machine.
      for (let i = 0; i < RUNS; i++)
        for (const { label, url } of ORIGINS)
          (runs[label] ??= []).push(await measure(browser, url, body))
      for (const { label } of ORIGINS) {
        const r = runs[label]!
        const row = {
          model: name,
          site: label,
          states: r.map((x) => x.state),
          textured: r.map((x) => x.textured),
          modelBytes: model.bytes,
          decoderBytes: median(r.map((x) => x.decoderBytes)),
          decoders: r[0]!.decoders,
          timeToLiveMs: median(r.map((x) => x.timeToLiveMs)),
          longestTaskMs: median(r.map((x) => x.longestTaskMs)),
        }
        rows.push(row)
        console.log(
          `${name.padEnd(15)} ${label.padEnd(7)} ${row.states.join('/').padEnd(18)} textured ${row.textured.map((t) => (t ? 'yes' : 'no')).join('/')}  model ${(model.bytes / 1024).toFixed(0)} KB  decoders ${(row.decoderBytes / 1024).toFixed(0)} KB  live in ${row.timeToLiveMs} ms  longest task ${row.longestTaskMs} ms`,
        )
      }
    }
  } finally {
    await browser.close()
  }
  writeFileSync(
    'bench/models-corpus.json',
    JSON.stringify(
      {
        date: new Date().toISOString(),
        environment: `headless Chromium (SwiftShader), ${PHONE.viewport.width}×${PHONE.viewport.height} at ${PHONE.deviceScaleFactor}×, CPU ${CPU}× slower, ${os.cpus().length} cores, load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
        runs: RUNS,
        origins: ORIGINS,
        rows,
      },
      null,
      2,
    ) + '\n',
  )
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
