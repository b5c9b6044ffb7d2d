// `npm run bench:models-corpus -- --origins label=URL[,label=URL…] [--runs N] [--models a,b]`:
// each model of the test corpus (tests/fixtures/model-corpus.ts) in the showcase's viewer, in
// place of its lamp, on each running site named (say `before` and `after`: two builds served side
// by side, measured in turn in one run), headless Chromium at a phone's viewport with the CPU
// slowed 4×. For each: whether it goes live and textured (the checker's red and green in the
// stage), the bytes fetched for it (the model, and the decoders from /3d-decoders/ as sent), the time from
// the visitor's scroll to the viewer (which starts the 3D) to the viewer live, and the longest
// main-thread task in that time. Median of N runs (3). Writes bench/models-corpus.json.
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { CORPUS, modelCorpus } from '../tests/fixtures/model-corpus'
import { environment, measureLive, median, type LiveRun } from './lib/viewer-live'

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

type Run = LiveRun & { modelBytes: number }

/** The model's bytes in place of the viewer's lamp. */
async function measure(browser: Browser, origin: string, body: Buffer): Promise<Run> {
  const run = await measureLive(browser, origin, (route) =>
    route.fulfill({ body, contentType: 'model/gltf-binary' }),
  )
  return { ...run, modelBytes: body.length }
}

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
        environment: environment(),
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
