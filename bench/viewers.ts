// `npm run bench:viewers -- [--origins label=URL[,label=URL…]] [--content label=DIR,…] [--runs N]
//   [--models a,b] [--trace FILE] [--network slow4g] [--arrival early]`: Facet's viewer beside Google's `<model-viewer>` on each model of
// the test corpus (tests/fixtures/model-corpus.ts), in one run, visit by visit.
//
// The protocol (bench/lib/viewer-live.ts), the same for both: headless Chromium at a phone's
// viewport (412 × 823 at 1.75), CPU 4× slower; the page loaded and quiet, then the visitor scrolls
// the viewer into view. Time runs from the scroll to the model on screen: Facet's viewer `live`,
// `<model-viewer>`'s `load`. Blocking is the main thread's time over 50 ms per task in that window.
//
// - **Facet**: the showcase of each site named (default `after=http://127.0.0.1:3000`; say
//   `before` and `after`: two builds served side by side), its viewer's model the corpus model,
//   put in the site's media (`--content`: each site's content folder, `content` by default) so
//   the site serves its variant for the device's tier, as it would an editor's upload. The site is
//   seen through a proxy that answers the viewer's file with it (`rewritingProxy`), not through a
//   Playwright route: a route turns Chromium's HTTP cache off for the whole visit, and the worker's
//   scripts, which the page fetches ahead for the worker's `importScripts` to find in the cache,
//   then came twice, one after another (so in bench/viewers-slow4g.json before 2026-12-02).
// - **`<model-viewer>`** (bench/lib/model-viewer.ts): the element from npm, its decoders served
//   locally, on a page with the viewer where the showcase has it, given the model as uploaded;
//   for the 4K scan also given Facet's low variant (`heavy (low variant)`).
//
// `--network slow4g`: every visit, both viewers', over Lighthouse's mobile network (150 ms round
// trip, 1.6 Mbit/s down), and the anchor in Facet's own showcase (its HTML, styles and images,
// without Facet's scripts, `<model-viewer>` in the viewer's stage: serveAnchorInShowcase), its
// files and the model Brotli-compressed from the same origin, as Facet's server sends its own;
// the report goes to bench/viewers-slow4g.json.
//
// `--arrival early`: the visitor scrolls 1.5 s after `load`, whatever the page is doing, instead
// of once it is quiet (the default, by which time Facet's warm-up has run): both viewers alike;
// the report goes to bench/viewers-early.json (bench/viewers-slow4g-early.json on slow 4G).
//
// Also: the bytes a visitor who never scrolls receives on the showcase, by 2.5 s and 10 s after
// `load`, per site. Reported for each model: time to live, bytes over the wire before the scroll and from it to live,
// longest task and blocking in that window (medians of N runs, 3 by default), and Facet's time as
// a ratio of the anchor's. Writes bench/viewers.json and the "Viewers" section of
// bench/report.md. `--trace FILE` writes each thread's time, scroll to live, for Facet's first
// run of each model on each site and the anchor's (FILE.<model>.<site>.json, FILE.<model>.model-viewer.json,
// and the raw trace beside each).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { CORPUS, modelCorpus } from '../tests/fixtures/model-corpus'
import { serveModel, unserveModels } from '../tests/fixtures/served-models'
import {
  measureAnchor,
  MODEL_VIEWER_VERSION,
  modelViewerScript,
  serveAnchorInShowcase,
  serveModelViewer,
  type AnchorRun,
} from './lib/model-viewer'
import { contentFolders, originsOf } from './lib/origins'
import {
  arrivalName,
  bytesWithoutInput,
  environment,
  isLamp,
  measureLive,
  median,
  rewritingProxy,
  setArrival,
  setNetwork,
  SLOW_4G,
  type LiveRun,
} from './lib/viewer-live'
import { writeViewersSection } from './lib/viewers-report.mjs'
import { measureBundles } from '../scripts/lib/bundles.mjs'

const { values } = parseArgs({
  options: {
    origins: { type: 'string', default: 'after=http://127.0.0.1:3000' },
    content: { type: 'string' },
    runs: { type: 'string', default: '3' },
    models: { type: 'string' },
    trace: { type: 'string' },
    network: { type: 'string', default: 'localhost' },
    arrival: { type: 'string', default: 'quiet' },
  },
})
if (values.network !== 'localhost' && values.network !== 'slow4g')
  throw new Error(`--network: "${values.network}" is neither localhost nor slow4g`)
setNetwork(values.network === 'slow4g' ? SLOW_4G : null)
if (values.arrival !== 'quiet' && values.arrival !== 'early')
  throw new Error(`--arrival: "${values.arrival}" is neither quiet nor early`)
setArrival(values.arrival)
const ORIGINS = originsOf(values.origins!)
const contentOf = contentFolders(values.content)
const RUNS = Number(values.runs)
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: "${values.runs}" is not a count`)
const NAMES = values.models ? values.models.split(',') : CORPUS
for (const name of NAMES)
  if (!CORPUS.includes(name))
    throw new Error(`--models: no model "${name}" in the corpus (${CORPUS.join(', ')})`)

/** One viewer's figures for one model: medians of the runs. */
export type Figures = {
  states: string[]
  timeToLiveMs: number
  bytesBeforeScroll: number
  bytesToLive: number
  longestTaskMs: number
  /** The longest task of any run: a median hides the one visit in three that met a long task. */
  worstTaskMs: number
  blockingMs: number
}
const figures = (runs: (LiveRun | AnchorRun)[]): Figures => ({
  states: runs.map((r) => r.state),
  timeToLiveMs: median(runs.map((r) => r.timeToLiveMs)),
  bytesBeforeScroll: median(runs.map((r) => r.bytesBeforeScroll)),
  bytesToLive: median(runs.map((r) => r.bytesToLive)),
  longestTaskMs: median(runs.map((r) => r.longestTaskMs)),
  worstTaskMs: Math.max(0, ...runs.map((r) => r.longestTaskMs)),
  blockingMs: median(runs.map((r) => r.blockingMs)),
})

type Row = {
  model: string
  /** Facet, by site label. */
  facet: Record<string, Figures>
  anchor: Figures
  /** Facet's time over the anchor's, by site label. */
  ratio: Record<string, number>
}

/** The low tier's variant of the model at `sitePath`, as the site serves it, in a file. */
async function lowVariant(origin: string, sitePath: string, dir: string, name: string) {
  const response = await fetch(`${origin}${sitePath}?tier=low`)
  if (!response.ok) throw new Error(`${origin}${sitePath}?tier=low: ${response.status}`)
  const file = path.join(dir, `${name}.glb`)
  writeFileSync(file, Buffer.from(await response.arrayBuffer()))
  return file
}

/** When a visitor who never scrolls is counted, after `load`. */
const NEVER_SCROLLS_MS = [2500, 10_000]
/** Where: the home page (its 3D hero), the showcase, and a project page (its hero's model). */
const NEVER_SCROLLS_PAGES = ['/en-us', '/en-us/showcase', '/en-us/work/lumen-lamp']

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
const line = (f: Figures) =>
  `${String(f.timeToLiveMs).padStart(6)} ms  ${kb(f.bytesToLive).padStart(9)} (before the scroll ${kb(f.bytesBeforeScroll)})  longest ${f.longestTaskMs} ms (worst run ${f.worstTaskMs} ms)  blocking ${f.blockingMs} ms  ${f.states.join('/')}`

async function main() {
  const corpus = await modelCorpus()
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  // Over slow 4G, the anchor in the showcase itself (the same page, from the same origin); over
  // localhost, on a page of its own as tall as the showcase above its viewer.
  const anchorSite =
    values.network === 'slow4g'
      ? await serveAnchorInShowcase(ORIGINS.at(-1)!.url)
      : await serveModelViewer()
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-viewers-'))
  const rows: Row[] = []
  /**
   * Bytes by 2.5 s and 10 s after `load` for a visitor who never scrolls, per page and site, runs:
   * what the warm-up costs one who never reaches the 3D.
   */
  const idle: Record<string, Record<string, Record<string, number>[]>> = {}
  try {
    for (let i = 0; i < RUNS; i++)
      for (const pathname of NEVER_SCROLLS_PAGES)
        for (const { label, url } of ORIGINS)
          ((idle[pathname] ??= {})[label] ??= []).push(
            await bytesWithoutInput(browser, url, NEVER_SCROLLS_MS, pathname),
          )
    for (const pathname of NEVER_SCROLLS_PAGES)
      for (const { label } of ORIGINS)
        console.log(
          `${pathname}, never scrolled, ${label}: ${NEVER_SCROLLS_MS.map((ms) => `${kb(median(idle[pathname]![label]!.map((r) => r[String(ms)]!)))} by ${ms / 1000} s`).join(', ')} after load`,
        )
    for (const name of NAMES) {
      const model = corpus.find((m) => m.name === name)!
      const served = Object.fromEntries(
        ORIGINS.map(({ label }) => [
          label,
          serveModel(model.file, `bench-${name}`, contentOf(label)),
        ]),
      )
      // Each site seen through a proxy that answers its viewer's file with this model (not a
      // Playwright route, which turns the HTTP cache off: bench/lib/viewer-live.ts).
      const proxies: Record<string, { url: string; close: () => Promise<void> }> =
        Object.fromEntries(
          await Promise.all(
            ORIGINS.map(async ({ label, url }) => [
              label,
              await rewritingProxy(url, (asked) =>
                isLamp(asked) ? `${served[label]}${asked.search}` : null,
              ),
            ]),
          ),
        )
      // Each site makes its variants before the first visit (a warm cache, as for a published model).
      for (const { label, url } of ORIGINS)
        for (const tier of ['low', 'high'])
          await fetch(`${url}${served[label]}?tier=${tier}`).then((r) => r.arrayBuffer())
      // The anchor's cases: the model as uploaded; the scan also as Facet's low variant.
      const last = ORIGINS.at(-1)!
      const anchorCases = [{ label: name, file: model.file }]
      if (name === 'heavy')
        anchorCases.push({
          label: `${name} (low variant)`,
          file: await lowVariant(last.url, served[last.label]!, scratch, `${name}-low`),
        })
      const facetRuns: Record<string, LiveRun[]> = {}
      const anchorRuns: Record<string, AnchorRun[]> = {}
      // Interleaved, so every viewer meets the same load on the machine.
      for (let i = 0; i < RUNS; i++) {
        for (const { label } of ORIGINS)
          (facetRuns[label] ??= []).push(
            await measureLive(
              browser,
              proxies[label]!.url,
              null,
              '',
              values.trace && i === 0 ? `${values.trace}.${name}.${label}.json` : undefined,
            ),
          )
        // Where Facet's showcase has its viewer, so the anchor's page scrolls as far.
        const stage = facetRuns[last.label]![0]!.stage
        for (const c of anchorCases) {
          const file = c.label.replace(/\W+/g, '-')
          ;(anchorRuns[c.label] ??= []).push(
            await measureAnchor(
              browser,
              anchorSite.show(`${file}.glb`, c.file, stage),
              values.trace && i === 0 ? `${values.trace}.${file}.model-viewer.json` : undefined,
            ),
          )
        }
      }
      for (const proxy of Object.values(proxies)) await proxy.close()
      for (const c of anchorCases) {
        const anchor = figures(anchorRuns[c.label]!)
        const facet = Object.fromEntries(
          ORIGINS.map(({ label }) => [label, figures(facetRuns[label]!)]),
        )
        const ratio = Object.fromEntries(
          ORIGINS.map(({ label }) => [
            label,
            Math.round((facet[label]!.timeToLiveMs / Math.max(1, anchor.timeToLiveMs)) * 100) / 100,
          ]),
        )
        rows.push({ model: c.label, facet, anchor, ratio })
        console.log(`${c.label}  (${kb(model.bytes)} uploaded)`)
        for (const { label } of ORIGINS)
          console.log(`  Facet ${label.padEnd(7)} ${line(facet[label]!)}  ×${ratio[label]}`)
        console.log(`  model-viewer   ${line(anchor)}`)
      }
    }
  } finally {
    await browser.close()
    await anchorSite.close()
    for (const { label } of ORIGINS) unserveModels(contentOf(label))
  }
  // The code each viewer needs, on the wire and gzipped: Facet's render worker's first scripts
  // and its model scenes (this checkout's build; a build before the model scenes were a chunk of
  // their own has none) beside `<model-viewer>`'s whole script.
  const worker = measureBundles().worker
  const anchorScript = readFileSync(modelViewerScript())
  const code = {
    facet: {
      wire: worker.wire,
      gzip: worker.gzip,
      modelScenes: worker.scenes.models,
      decodersLoaders: worker.lazyTotal,
    },
    anchor: {
      wire: brotliCompressSync(anchorScript, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
      gzip: gzipSync(anchorScript, { level: 6 }).length,
    },
  }
  console.log(
    `code: Facet's render worker ${kb(code.facet.wire)} on the wire (${kb(code.facet.gzip)} gzipped), and its model scenes ${kb(code.facet.modelScenes.wire)} (${kb(code.facet.modelScenes.gzip)} gzipped); <model-viewer> ${kb(code.anchor.wire)} (${kb(code.anchor.gzip)} gzipped)`,
  )
  const report = {
    date: new Date().toISOString(),
    code,
    environment: environment(),
    arrival: arrivalName(),
    runs: RUNS,
    origins: ORIGINS,
    // The showcase's, as before; and every page measured.
    neverScrolls: Object.fromEntries(
      ORIGINS.map(({ label }) => [
        label,
        Object.fromEntries(
          NEVER_SCROLLS_MS.map((ms) => [
            ms,
            median(idle['/en-us/showcase']![label]!.map((r) => r[String(ms)]!)),
          ]),
        ),
      ]),
    ),
    neverScrollsByPage: Object.fromEntries(
      NEVER_SCROLLS_PAGES.map((pathname) => [
        pathname,
        Object.fromEntries(
          ORIGINS.map(({ label }) => [
            label,
            Object.fromEntries(
              NEVER_SCROLLS_MS.map((ms) => [
                ms,
                median(idle[pathname]![label]!.map((r) => r[String(ms)]!)),
              ]),
            ),
          ]),
        ),
      ]),
    ),
    anchor: `@google/model-viewer ${MODEL_VIEWER_VERSION} (dist/model-viewer.min.js, decoders served locally)`,
    rows,
  }
  const early = values.arrival === 'early' ? '-early' : ''
  if (values.network === 'slow4g' || early)
    writeFileSync(
      `bench/viewers${values.network === 'slow4g' ? '-slow4g' : ''}${early}.json`,
      JSON.stringify(report, null, 2) + '\n',
    )
  else {
    writeFileSync('bench/viewers.json', JSON.stringify(report, null, 2) + '\n')
    writeViewersSection('bench/report.md', report)
  }
  const behind = rows.filter((r) => r.ratio[ORIGINS.at(-1)!.label]! > 1)
  console.log(
    behind.length
      ? `\nFacet (${ORIGINS.at(-1)!.label}) is behind <model-viewer> on: ${behind.map((r) => r.model).join(', ')}`
      : `\nFacet (${ORIGINS.at(-1)!.label}) is at or under <model-viewer>'s time on every model.`,
  )
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    for (const { label } of ORIGINS) unserveModels(contentOf(label))
    process.exit(1)
  },
)
