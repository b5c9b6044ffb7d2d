// `npm run bench:hotspots`: how far a hotspot's button is from its point on the model, as a
// visitor sees them, while the model turns, in each engine (#40). One run, every engine:
//   Chromium headless on the worker path and on the main thread (`?debug3d=main`), Firefox ESR in
//   a window with WebGL (worker path), WebKitGTK's MiniBrowser (main thread).
// The showcase's lamp is served with a small red unlit sphere (6 cm across) at each hotspot's position (made
// here with glTF-Transform), and the buttons are drawn as hollow green rings (a style added by
// the bench): each screenshot of the stage, which the browser composites from the canvas and the
// page as it shows them, has both. The distance from each ring's centre to the red dot inside it
// is the offset, in CSS pixels. The model turns under a drag the page receives as pointer events
// (2 px every 16 ms, back and forth: about 70° a second on this stage), while the screenshots
// are taken; then at rest, which gives the measure's own error (the dot is half a sphere on the
// surface, so its centre is not quite the point).
//   --shots 30          screenshots while turning, per engine
//   --engines chromium-worker,chromium-main,firefox,webkit
//   --origin URL        the running site to measure (`npm start`)
//   --out bench/hotspots.json
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { Document, Logger, NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS, KHRMaterialsUnlit } from '@gltf-transform/extensions'
import { MeshoptDecoder } from 'meshoptimizer'
import sharp from 'sharp'
import { ensureDisplay } from './lib/display.mjs'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { startProxy } from '../tests/engines/support/proxy'
import { launchFirefox } from '../tests/engines/support/firefox'
import { launchWebKit } from '../tests/engines/support/webkit'
import { documentFile, urlOf } from '../tests/e2e/support/content'
import { parseNormal, parseVec3 } from '../rules/hotspots'
import { runBenchmark } from './lib/chromium.mjs'
import { median } from '../src/three/render/resolution'

const { values: args } = parseArgs({
  options: {
    shots: { type: 'string', default: '30' },
    engines: { type: 'string', default: 'chromium-worker,chromium-main,firefox,webkit' },
    origin: { type: 'string' },
    out: { type: 'string', default: 'bench/hotspots.json' },
  },
})
const SHOTS = Number(args.shots)
const LAMP = '/local/prismic/media/models/lamp.glb'
const VIEWPORT = { width: 1000, height: 900 }
const VIEWER = '.slice-model-viewer [data-3d-state]'
// The buttons as hollow rings of one colour no part of the lamp has.
const RINGS = `[data-hotspot] { background: transparent !important; border: 2px solid #00ff00 !important;
  box-shadow: none !important; transition: none !important } [data-hotspot] > span { display: none }`

/** What the bench needs of a browser: the engine tests' interface, in part. */
type Browser = {
  name: string
  origin: string
  replacements: Map<string, { body: Uint8Array; type: string }>
  goto(path: string): Promise<void>
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>
  screenshot(selector: string): Promise<Buffer>
  close(): Promise<void>
}

/**
 * Where each marker goes: the showcase viewer's hotspots' positions, as written, moved out along
 * the normal by half the marker's radius, so that a marker on a rounded part (the joint) is not
 * swallowed by it.
 */
function markerPoints(radius: number): [number, number, number][] {
  const viewer = documentFile('page', 'showcase', 'en-us').data.slices!.find(
    (slice) => slice.slice_type === 'model_viewer',
  )!.primary
  return (viewer.hotspots as { position: string; normal: string }[]).map((hotspot) => {
    const position = parseVec3(hotspot.position)
    const normal = parseNormal(hotspot.normal)
    if (!position.ok || !normal.ok) throw new Error(`hotspot ${hotspot.position} ${hotspot.normal}`)
    return position.value.map((c, k) => c + normal.value[k]! * radius * 0.5) as [
      number,
      number,
      number,
    ]
  })
}

/** The marker's radius, in metres. */
const MARKER = 0.03

/** The lamp with a red unlit sphere, 6 cm across, at each of `points` (in its coordinates). */
async function markedLamp(points: [number, number, number][]): Promise<Uint8Array> {
  await MeshoptDecoder.ready
  const io = new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.WARN))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder })
  const doc: Document = await io.read('content/media/models/lamp.glb')
  // Written out uncompressed: no encoder needed, and the site's decoders are not measured here.
  for (const name of ['EXT_meshopt_compression'])
    doc
      .getRoot()
      .listExtensionsUsed()
      .find((e) => e.extensionName === name)
      ?.dispose()
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer()
  const radius = MARKER
  const [rings, segments] = [6, 10]
  const position: number[] = []
  const index: number[] = []
  for (let r = 0; r <= rings; r++)
    for (let s = 0; s <= segments; s++) {
      const phi = (r / rings) * Math.PI
      const theta = (s / segments) * 2 * Math.PI
      position.push(
        radius * Math.sin(phi) * Math.cos(theta),
        radius * Math.cos(phi),
        radius * Math.sin(phi) * Math.sin(theta),
      )
    }
  for (let r = 0; r < rings; r++)
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s
      const b = a + segments + 1
      index.push(a, b, a + 1, b, b + 1, a + 1)
    }
  const unlit = doc.createExtension(KHRMaterialsUnlit)
  const red = doc
    .createMaterial('hotspot marker')
    .setBaseColorFactor([1, 0, 0, 1])
    .setExtension('KHR_materials_unlit', unlit.createUnlit())
  const mesh = doc.createMesh('marker').addPrimitive(
    doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(new Float32Array(position)).setBuffer(buffer),
      )
      .setIndices(
        doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(index)).setBuffer(buffer),
      )
      .setMaterial(red),
  )
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0]!
  for (const [i, point] of points.entries())
    scene.addChild(
      doc
        .createNode(`hotspot ${i + 1}`)
        .setMesh(mesh)
        .setTranslation(point),
    )
  return io.writeBinary(doc)
}

let dumped = 0

type Blob = { x: number; y: number; pixels: number }

/** The 4-connected blobs of pixels `match` picks in an RGBA image, with their centres. */
function blobs(
  data: Buffer,
  width: number,
  height: number,
  match: (r: number, g: number, b: number) => boolean,
  centre: 'box' | 'mass',
): Blob[] {
  const seen = new Uint8Array(width * height)
  const found: Blob[] = []
  for (let start = 0; start < width * height; start++) {
    if (seen[start]) continue
    const o = start * 4
    if (!match(data[o]!, data[o + 1]!, data[o + 2]!)) continue
    const stack = [start]
    seen[start] = 1
    let [sx, sy, n] = [0, 0, 0]
    let [minX, minY, maxX, maxY] = [width, height, 0, 0]
    while (stack.length) {
      const p = stack.pop()!
      const x = p % width
      const y = (p - x) / width
      sx += x
      sy += y
      n++
      minX = Math.min(minX, x)
      maxX = Math.max(maxX, x)
      minY = Math.min(minY, y)
      maxY = Math.max(maxY, y)
      for (const q of [p - 1, p + 1, p - width, p + width]) {
        if (q < 0 || q >= width * height || seen[q]) continue
        if (Math.abs((q % width) - x) > 1) continue
        const k = q * 4
        if (!match(data[k]!, data[k + 1]!, data[k + 2]!)) continue
        seen[q] = 1
        stack.push(q)
      }
    }
    if (n < 3) continue
    found.push(
      centre === 'box'
        ? { x: (minX + maxX + 1) / 2, y: (minY + maxY + 1) / 2, pixels: n }
        : { x: sx / n + 0.5, y: sy / n + 0.5, pixels: n },
    )
  }
  return found
}

/** Each ring's distance to the nearest red dot, in CSS pixels (`scale`: image pixels per CSS px). */
async function offsets(png: Buffer, scale: number): Promise<(number | null)[]> {
  if (process.env.HOTSPOTS_DUMP) writeFileSync(`${process.env.HOTSPOTS_DUMP}-${dumped++}.png`, png)
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const rings = blobs(
    data,
    info.width,
    info.height,
    (r, g, b) => g > 200 && r < 90 && b < 90,
    'box',
  ).filter((ring) => ring.pixels > 40 * scale)
  const dots = blobs(
    data,
    info.width,
    info.height,
    (r, g, b) => r > 170 && g < 70 && b < 70,
    'mass',
  )
  // A dot within 40 CSS px of a ring (beyond a button's width) is its point; a ring with none is
  // counted apart (its marker hidden by the model, or a lag past that).
  return rings.map((ring) => {
    const nearest = Math.min(...dots.map((dot) => Math.hypot(dot.x - ring.x, dot.y - ring.y)))
    return Number.isFinite(nearest) && nearest < 40 * scale ? nearest / scale : null
  })
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN
}

/** Chromium headless through Playwright, behind the engine tests' proxy. */
async function launchChromium(site: string): Promise<Browser> {
  const proxy = await startProxy(site)
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const page = await browser.newPage({ viewport: VIEWPORT })
  return {
    name: 'chromium (headless)',
    origin: proxy.origin,
    replacements: proxy.replacements,
    goto: async (path) => {
      await page.goto(`${proxy.origin}${path}`, { waitUntil: 'load' })
    },
    // An expression: evaluated through the DevTools protocol, as the engines' drivers do.
    evaluate: (fn, ...rest) =>
      page.evaluate(`(${fn.toString()})(...${JSON.stringify(rest)})`) as never,
    screenshot: async (selector) => page.locator(selector).screenshot(),
    close: async () => {
      await browser.close()
      await proxy.close()
    },
  }
}

/** One engine's figures: the offsets while the drag turns the model, and at rest. */
async function measure(browser: Browser, path: string, marked: Uint8Array) {
  browser.replacements.set(LAMP, { body: marked, type: 'model/gltf-binary' })
  await browser.goto(path)
  await browser.evaluate(
    (selector, css) => {
      const style = document.createElement('style')
      style.textContent = css
      document.head.append(style)
      document.querySelector(`${selector} [data-3d-stage]`)!.scrollIntoView({ block: 'center' })
    },
    VIEWER,
    RINGS,
  )
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    const placed = await browser.evaluate(
      (selector) =>
        document.querySelector(selector)?.getAttribute('data-3d-state') === 'live' &&
        document.querySelectorAll(`${selector} [data-hotspot][data-placed]`).length > 0 &&
        getComputedStyle(document.querySelector(`${selector} [data-3d-stage] > div`)!).opacity ===
          '0',
      VIEWER,
    )
    if (placed) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const scale = async () => {
    const png = await browser.screenshot(`${VIEWER} [data-3d-stage]`)
    const { width } = await sharp(png).metadata()
    const css = await browser.evaluate(
      (selector) => document.querySelector(`${selector} [data-3d-stage]`)!.clientWidth,
      VIEWER,
    )
    return { png, scale: width! / css }
  }
  const rest: (number | null)[] = []
  for (let i = 0; i < 3; i++) {
    const shot = await scale()
    rest.push(...(await offsets(shot.png, shot.scale)))
  }
  // The drag: pointer events on the stage, 2 px every 16 ms, turning back every 0.75 s. (No
  // named function inside: tsx would wrap it in a helper the page does not have.)
  await browser.evaluate((selector) => {
    const stage = document.querySelector<HTMLElement>(`${selector} [data-3d-stage]`)!
    const box = stage.getBoundingClientRect()
    const y = box.top + box.height / 2
    let x = box.left + box.width / 2
    stage.dispatchEvent(
      new PointerEvent('pointerdown', { clientX: x, clientY: y, pointerId: 11, bubbles: true }),
    )
    let step = 2
    let ticks = 0
    ;(window as unknown as { __drag: number }).__drag = window.setInterval(() => {
      if (++ticks % 47 === 0) step = -step
      x += step
      stage.dispatchEvent(
        new PointerEvent('pointermove', { clientX: x, clientY: y, pointerId: 11, bubbles: true }),
      )
    }, 16)
  }, VIEWER)
  const moving: (number | null)[] = []
  let shots = 0
  const started = Date.now()
  // The camera's azimuth after each screenshot (`?debug3d`): proof that the model turned.
  const azimuths: number[] = []
  for (; shots < SHOTS; shots++) {
    const shot = await scale()
    moving.push(...(await offsets(shot.png, shot.scale)))
    azimuths.push(
      await browser.evaluate(() => {
        const hook = (
          window as unknown as { __facet3d: { orbits: Record<string, { azimuth: number }> } }
        ).__facet3d
        return Object.values(hook.orbits)[0]?.azimuth ?? NaN
      }),
    )
  }
  const seconds = (Date.now() - started) / 1000
  await browser.evaluate(() => {
    clearInterval((window as unknown as { __drag: number }).__drag)
  })
  const round = (n: number) => Math.round(n * 10) / 10
  const paired = (list: (number | null)[]) => list.filter((n): n is number => n !== null)
  const turning = paired(moving)
  const still = paired(rest)
  return {
    shots,
    shotsPerSecond: round(shots / seconds),
    /** The camera's azimuths seen across the screenshots, in degrees: least, most, distinct. */
    azimuth: {
      min: round((Math.min(...azimuths) * 180) / Math.PI),
      max: round((Math.max(...azimuths) * 180) / Math.PI),
      distinct: new Set(azimuths.map((a) => a.toFixed(4))).size,
    },
    turning: {
      pairs: turning.length,
      unpaired: moving.length - turning.length,
      median: round(median(turning)),
      p95: round(quantile(turning, 0.95)),
      max: round(Math.max(...turning)),
    },
    atRest: {
      pairs: still.length,
      unpaired: rest.length - still.length,
      median: round(median(still)),
      max: round(Math.max(...still)),
    },
  }
}

async function main() {
  const showcase = urlOf(documentFile('page', 'showcase', 'en-us'))!
  const marked = await markedLamp(markerPoints(MARKER))
  const origin = args.origin
  if (!origin)
    throw new Error('bench:hotspots: name the running site, e.g. --origin http://127.0.0.1:3217')
  const display = await ensureDisplay()
  const results: Record<string, unknown> = {}
  try {
    for (const engine of args.engines.split(',')) {
      const browser =
        engine === 'firefox'
          ? await launchFirefox(origin, {
              mode: 'webgl',
              display: display.display,
              viewport: VIEWPORT,
            })
          : engine === 'webkit'
            ? await launchWebKit(origin, { display: display.display })
            : await launchChromium(origin)
      try {
        const path = `${showcase}?debug3d${engine === 'chromium-main' ? '=main' : ''}`
        const figures = await measure(browser as Browser, path, marked)
        results[engine] = figures
        console.log(engine, JSON.stringify(figures))
      } finally {
        await browser.close()
      }
    }
  } finally {
    display.stop()
  }
  const report = {
    when: new Date().toISOString(),
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
    protocol:
      'showcase viewer, 1000 × 900 window; a drag of 2 px per 16 ms turning the lamp back and forth; offsets in CSS px from each shown button to the red dot at its point, per screenshot',
    engines: results,
  }
  writeFileSync(args.out, JSON.stringify(report, null, 2) + '\n')
  console.log(
    `\n| engine | screenshots | azimuths (distinct) | buttons turning (paired, not) | median | p95 | max | at rest: median, max |`,
  )
  console.log(`|---|---|---|---|---|---|---|---|`)
  for (const [engine, f] of Object.entries(results) as [
    string,
    Awaited<ReturnType<typeof measure>>,
  ][])
    console.log(
      `| ${engine} | ${f.shots} (${f.shotsPerSecond}/s) | ${f.azimuth.min}° to ${f.azimuth.max}° (${f.azimuth.distinct}) | ${f.turning.pairs}, ${f.turning.unpaired} | ${f.turning.median} px | ${f.turning.p95} px | ${f.turning.max} px | ${f.atRest.median}, ${f.atRest.max} px |`,
    )
  console.log(`load average: ${report.load.join(' ')}`)
}

runBenchmark(main)
