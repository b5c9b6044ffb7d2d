// Renders the sample content's photographs: studio shots of the project's own 3D models (the
// GLB files in content/media/models) and of a few three.js shapes, in headless Chromium
// (playwright-core, CHROME_PATH or /usr/bin/chromium; WebGL through SwiftShader), written as
// compressed JPEG originals of 2400 px and more into content/media/photos/. Run `npm run photos`
// after `npm run models`. Nothing is fetched: three.js and the models are served from disk.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'
import sharp from 'sharp'

/** The originals stay small enough for the repository: each under this many bytes. */
const MAX_BYTES = 400 * 1024
/** mozjpeg quality for the originals: the image service re-encodes every variant anyway. */
const QUALITY = 70
const root = process.cwd()
const outDir = path.join(root, 'content/media/photos')

type Item = {
  model?: 'lamp' | 'vessel'
  shape?: 'knot' | 'facets' | 'rings' | 'speaker' | 'chair'
  material?: {
    color: string
    metalness?: number
    roughness?: number
    clearcoat?: number
    flat?: boolean
  }
  height?: number
  at?: [number, number]
  turn?: number
}
type Shot = {
  name: string
  width: number
  height: number
  backdrop: [string, string]
  camera: [number, number, number]
  target?: [number, number, number]
  fov?: number
  keyFrom?: [number, number, number]
  keyColor?: string
  key?: number
  ambient?: number
  exposure?: number
  shadow?: number
  items: Item[]
}

const clay = (color: string) => ({ color, roughness: 0.85 })
const glaze = (color: string) => ({ color, roughness: 0.2, clearcoat: 1 })
const metal = (color: string, roughness = 0.3) => ({ color, metalness: 1, roughness })

/** Project covers (3:2), the studio's bench and process (4:3), the testimonial's portrait. */
const SHOTS: Shot[] = [
  {
    name: 'lumen-lamp',
    width: 2400,
    height: 1600,
    backdrop: ['#3a2a4f', '#15101f'],
    camera: [2.2, 1.4, 3.2],
    keyColor: '#ffd9a8',
    items: [{ model: 'lamp', height: 1.3, turn: -0.5 }],
  },
  {
    name: 'kiln-museum',
    width: 2400,
    height: 1600,
    backdrop: ['#e9dccb', '#b9a58d'],
    camera: [0.4, 1.1, 3.6],
    items: [
      { model: 'vessel', material: clay('#b5653d'), height: 1.2, at: [-0.55, 0] },
      { model: 'vessel', material: glaze('#2f5d62'), height: 0.8, at: [0.55, 0.3], turn: 1 },
    ],
  },
  {
    name: 'halo-speaker',
    width: 2400,
    height: 1600,
    backdrop: ['#20242c', '#0c0e12'],
    camera: [1.6, 1.2, 3.3],
    keyFrom: [-2, 4, 2],
    items: [{ shape: 'speaker', material: { color: '#2b2d33', roughness: 0.6 }, height: 1.3 }],
  },
  {
    name: 'orbit-chair',
    width: 2400,
    height: 1600,
    backdrop: ['#d6e4e0', '#93aaa4'],
    camera: [2.4, 1.6, 2.6],
    target: [0, 0.4, 0],
    items: [{ shape: 'chair', material: glaze('#d9673b'), height: 1, turn: 0.6 }],
  },
  {
    name: 'tessellate',
    width: 2400,
    height: 1600,
    backdrop: ['#1d1b4b', '#0b0a20'],
    camera: [0, 1.3, 3.8],
    items: [
      { shape: 'facets', material: { ...metal('#c9ccd6', 0.2), flat: true }, height: 1.1 },
      {
        shape: 'facets',
        material: { ...metal('#f2c46d', 0.25), flat: true },
        height: 0.5,
        at: [1.1, 0.4],
      },
      {
        shape: 'facets',
        material: { ...clay('#5a57d6'), flat: true },
        height: 0.4,
        at: [-1.1, 0.3],
      },
    ],
  },
  {
    name: 'atelier-rhone',
    width: 2400,
    height: 1600,
    backdrop: ['#f1ece4', '#c8bfb1'],
    camera: [0.8, 1.5, 4.2],
    target: [0, 0.45, 0],
    items: [
      { model: 'vessel', material: glaze('#efe8dc'), height: 1.1, at: [-0.9, 0] },
      { model: 'lamp', height: 1.2, at: [0.3, -0.2], turn: -0.9 },
      { shape: 'knot', material: clay('#8b9a6b'), height: 0.5, at: [1.2, 0.4] },
    ],
  },
  {
    name: 'studio-bench',
    width: 2400,
    height: 1800,
    backdrop: ['#2b1a12', '#120a06'],
    camera: [0.3, 1.5, 4],
    target: [0, 0.4, 0],
    keyColor: '#ffe2b8',
    items: [
      { model: 'lamp', height: 1.1, at: [-0.9, -0.2], turn: 0.7 },
      { shape: 'rings', material: metal('#d8a657'), height: 0.7, at: [0.2, 0.2] },
      { model: 'vessel', material: clay('#9c5b3b'), height: 0.6, at: [1.1, 0] },
    ],
  },
  {
    name: 'studio-process',
    width: 2400,
    height: 1800,
    backdrop: ['#22223b', '#0e0e1a'],
    camera: [0, 1.2, 4.4],
    target: [0, 0.35, 0],
    items: [
      { model: 'vessel', material: clay('#8a8a8a'), height: 0.7, at: [-1.5, 0] },
      { model: 'vessel', material: clay('#b08866'), height: 0.7, at: [-0.75, 0] },
      { model: 'vessel', material: clay('#b5653d'), height: 0.7, at: [0, 0] },
      { model: 'vessel', material: glaze('#a8552f'), height: 0.7, at: [0.75, 0] },
      { model: 'vessel', material: glaze('#2f5d62'), height: 0.7, at: [1.5, 0] },
    ],
  },
  {
    name: 'portrait-ines',
    width: 2400,
    height: 1600,
    backdrop: ['#e7d3c0', '#a98469'],
    camera: [0, 0.9, 2.6],
    target: [0, 0.5, 0],
    items: [{ model: 'vessel', material: glaze('#6b3f2a'), height: 1.1, turn: 0.3 }],
  },
]

const FILES: Record<string, string> = {
  '/stage.html': path.join(root, 'scripts/models/stage.html'),
}

function fileFor(urlPath: string): string | undefined {
  if (FILES[urlPath]) return FILES[urlPath]
  if (urlPath.startsWith('/three/')) return path.join(root, 'node_modules', urlPath)
  if (urlPath.startsWith('/media/models/')) return path.join(root, 'content', urlPath)
  return undefined
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.glb': 'model/gltf-binary',
}

async function main() {
  mkdirSync(outDir, { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--enable-unsafe-swiftshader',
      '--use-angle=swiftshader',
    ],
  })
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => console.error('stage:', error.message))
    // Every request is answered from disk; anything else is refused (no network).
    await page.route('**/*', (route) => {
      const file = fileFor(new URL(route.request().url()).pathname)
      if (!file) return route.abort()
      return route.fulfill({
        body: readFileSync(file),
        contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      })
    })
    await page.goto('http://studio.invalid/stage.html')
    await page.waitForFunction(() => (window as unknown as { stageReady?: boolean }).stageReady)
    for (const shot of SHOTS) {
      const started = Date.now()
      const dataUrl = (await page.evaluate(
        (s) => (window as unknown as { renderShot: (s: unknown) => Promise<string> }).renderShot(s),
        shot,
      )) as string
      const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
      const file = path.join(outDir, `${shot.name}.jpg`)
      const jpeg = await sharp(png)
        .jpeg({ quality: QUALITY, mozjpeg: true, chromaSubsampling: '4:2:0' })
        .toBuffer()
      writeFileSync(file, jpeg)
      const bytes = statSync(file).size
      console.log(
        `${path.relative(root, file)}: ${shot.width}×${shot.height}, ${(bytes / 1024).toFixed(0)} KB (${Date.now() - started} ms)`,
      )
      if (bytes > MAX_BYTES)
        throw new Error(`${shot.name}.jpg is ${bytes} bytes, over the ${MAX_BYTES} limit`)
    }
  } finally {
    await browser.close()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
