// `npm run bench:look -- [--origin URL] [--paths worker,main] [--pictures DIR]`: each art direction
// setting's effect on the drawn stage (#61): the showcase's viewer at one end of the setting's
// range, then at the other (tests/e2e/support/look.ts lists them), and the share of the stage's
// pixels that changed. For a setting that acts over time (auto-rotate's speed and delay), the
// share that changed over its wait, at each end. Headless Chromium (SwiftShader), 1000 × 900,
// `?debug3d=motion` (paused for the still settings). `--pictures DIR` writes each end's stage as
// a PNG (docs/3d-models.md shows them). Writes bench/look.json and prints a table.
//
// Also: the sample HDR's bytes per tier, as the site serves them (with Brotli where asked), and
// those of a 30 MB HDR made here (noise over a studio, 8192 × 4096) put beside it in the media.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { documentFile, urlOf } from '../tests/e2e/support/content'
import {
  applyLookInPage,
  lookSettings,
  merged,
  SAMPLE_HDR,
  type LookPatch,
  type LookSetting,
} from '../tests/e2e/support/look'
import { writeHdr } from '../services/content-api/environments/hdr'
import { runBenchmark } from './lib/chromium.mjs'
import { changedPercent as changed } from './lib/pixels'

const { values } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://127.0.0.1:3000' },
    paths: { type: 'string', default: 'worker,main' },
    pictures: { type: 'string' },
    content: { type: 'string', default: 'content' },
    out: { type: 'string', default: 'bench/look.json' },
  },
})
const ORIGIN = values.origin!.replace(/\/$/, '')
const SHOWCASE = urlOf(documentFile('page', 'showcase', 'en-us'))!
const VIEWER = '.slice-model-viewer [data-3d-state]'
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function png(stage: Locator): Promise<Buffer> {
  return stage.screenshot({ animations: 'allow' })
}

/** The stage once it has stopped changing (an environment loading, a frame on its way). */
async function settled(stage: Locator): Promise<Buffer> {
  let last = await png(stage)
  for (let i = 0; i < 20; i++) {
    await pause(150)
    const next = await png(stage)
    if ((await changed(last, next)) === 0) return next
    last = next
  }
  return last
}

/** The viewer's art direction `patch`, once a frame is drawn with it (its environment loaded). */
async function respec(page: Page, patch: LookPatch) {
  await page.evaluate(applyLookInPage, { selector: `${VIEWER} [data-3d-stage]`, patch })
}

const press = (page: Page, button: string) =>
  page.locator(`${VIEWER} [data-3d-view="${button}"]`).click()

/** One end of a setting: its stage (after its action), or its change over its wait. */
async function end(
  page: Page,
  stage: Locator,
  setting: LookSetting,
  patch: LookPatch,
): Promise<{ shot: Buffer; overTime?: number }> {
  await respec(page, merged(setting.base, patch))
  await press(page, 'reset')
  const action = setting.action
  if (action.kind === 'press')
    for (let i = 0; i < action.times; i++) await press(page, action.button)
  if (action.kind === 'turn-then-wait') await press(page, 'turnLeft')
  const shot = await settledOrNow(stage, action.kind === 'none' || action.kind === 'press')
  if (action.kind === 'wait' || action.kind === 'turn-then-wait') {
    await pause(action.ms)
    return { shot, overTime: await changed(shot, await png(stage)) }
  }
  return { shot }
}

// A second first: the worker's frame reaches the screen late in SwiftShader, and a new
// environment is drawn after a frame without the model (the scene waits for the light).
const settledOrNow = (stage: Locator, settle: boolean) =>
  settle ? pause(1000).then(() => settled(stage)) : pause(300).then(() => png(stage))

async function measure(page: Page, renderPath: string, hdr: string) {
  // tsx (esbuild, keepNames) wraps named functions with `__name`, which the page does not have.
  await page.addInitScript('globalThis.__name = (fn) => fn')
  await page.goto(`${ORIGIN}${SHOWCASE}?debug3d=motion${renderPath === 'main' ? ',main' : ''}`)
  await page.evaluate(() => window.scrollBy(0, 1))
  const stage = page.locator(`${VIEWER} [data-3d-stage]`)
  await stage.scrollIntoViewIfNeeded()
  await page.waitForSelector(`${VIEWER}[data-3d-state="live"]`, { timeout: 60_000 })
  // Still for the still settings: the viewer's pause (every 3D on the page follows it).
  await page.locator(`${VIEWER} [data-3d-motion="playing"]`).click()
  const rows = []
  for (const setting of lookSettings(hdr)) {
    const moving = setting.action.kind === 'wait' || setting.action.kind === 'turn-then-wait'
    if (moving && (await page.locator(`${VIEWER} [data-3d-motion="paused"]`).count()))
      await page.locator(`${VIEWER} [data-3d-motion="paused"]`).click()
    const [a, b] = [
      await end(page, stage, setting, setting.ends[0].patch),
      await end(page, stage, setting, setting.ends[1].patch),
    ]
    const row = {
      setting: setting.name,
      field: setting.field,
      from: setting.ends[0].label,
      to: setting.ends[1].label,
      changedPercent: moving ? null : await changed(a.shot, b.shot),
      overTimePercent: moving ? [a.overTime!, b.overTime!] : null,
    }
    rows.push(row)
    console.log(renderPath, JSON.stringify(row))
    // The pictures from the last path measured (`--paths worker,main`: the main thread's).
    if (values.pictures && renderPath === values.paths!.split(',').at(-1)) {
      mkdirSync(values.pictures, { recursive: true })
      const name = setting.field.replace(/_/g, '-')
      const slug = (label: string) => label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()
      for (const [i, shot] of [a.shot, b.shot].entries())
        await sharp(shot)
          .resize({ width: 360 })
          .webp({ quality: 80 })
          .toFile(path.join(values.pictures, `${name}-${slug(setting.ends[i]!.label)}.webp`))
    }
  }
  return rows
}

/** The bytes of an environment file per tier, as a browser that asks for Brotli receives them. */
async function tierBytes(url: string) {
  const out: Record<string, { bytes: number; encoding: string }> = {}
  for (const query of ['', 'tier=low', 'tier=low&sky=1', 'tier=high', 'tier=high&sky=1']) {
    const response = await fetch(
      `${ORIGIN}${url}${query ? `${url.includes('?') ? '&' : '?'}${query}` : ''}`,
      {
        headers: { 'accept-encoding': 'br, gzip' },
      },
    )
    const body = new Uint8Array(await response.arrayBuffer())
    out[query || 'as uploaded'] = {
      bytes: Number(response.headers.get('content-length') ?? body.length),
      encoding: response.headers.get('content-encoding') ?? 'identity',
    }
  }
  return out
}

/**
 * A studio with noise, as a photographed HDR has, 4096 × 2048: 32 MB once written (noise does not
 * run-length encode, so each pixel takes its 4 bytes).
 */
function largeHdr(): Uint8Array {
  const width = 4096
  const height = 2048
  const rgb = new Float32Array(width * height * 3)
  let seed = 7
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      const light = y < height * 0.3 && x > width * 0.4 && x < width * 0.6 ? 20 : 0.4
      const n = 0.85 + random() * 0.3
      rgb[i] = light * n
      rgb[i + 1] = light * n * 0.97
      rgb[i + 2] = light * n * 0.93
    }
  return writeHdr(width, height, rgb)
}

async function main() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const hdrUrl = await (async () => {
    const html = await (await fetch(`${ORIGIN}${SHOWCASE}`)).text()
    const found = new RegExp(`(/[^"\\\\]*${SAMPLE_HDR.replace('.', '\\.')}[^"\\\\]*)`).exec(html)
    if (!found) throw new Error(`the showcase names no ${SAMPLE_HDR}`)
    return found[1]!
  })()
  const paths: Record<string, unknown> = {}
  try {
    for (const renderPath of values.paths!.split(',')) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
      paths[renderPath] = await measure(await context.newPage(), renderPath, hdrUrl)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  // The environment's bytes per tier: the sample, and a 30 MB one put in the media for this.
  const large = path.join(values.content!, 'media', 'environments', 'bench-large.hdr')
  writeFileSync(large, largeHdr())
  let bytes
  try {
    bytes = {
      sample: await tierBytes(hdrUrl.split('?')[0]!),
      large: await tierBytes('/local/prismic/media/environments/bench-large.hdr'),
    }
  } finally {
    rmSync(large, { force: true })
  }
  console.log(JSON.stringify(bytes, null, 1))
  const report = {
    when: new Date().toISOString(),
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
    protocol:
      "the showcase's viewer, 1000 × 900, headless Chromium (SwiftShader), each setting at both ends of its range through ?debug3d's respec; % of the stage's pixels that changed",
    paths,
    environmentBytes: bytes,
  }
  writeFileSync(values.out!, JSON.stringify(report, null, 2) + '\n')
  console.log(`load average: ${report.load.join(' ')}`)
}

runBenchmark(main)
