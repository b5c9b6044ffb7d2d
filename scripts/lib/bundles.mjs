// Measures the JavaScript each prerendered page loads up front, from the production build on
// disk: the <script src> chunks in its HTML, gzipped as `next start` serves them (level 6).
// Byte sizes are stable, so they can be checked in tests; times never are.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import path from 'node:path'

const APP_DIR = path.join('.next', 'server', 'app')
const STATIC_DIR = path.join('.next')

/** Every prerendered page: its route and the HTML file. */
export function prerenderedPages(dir = APP_DIR, prefix = '') {
  if (!existsSync(dir)) return []
  const pages = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) pages.push(...prerenderedPages(full, `${prefix}/${entry.name}`))
    else if (entry.name.endsWith('.html'))
      pages.push({ route: `${prefix}/${entry.name.replace(/\.html$/, '')}`, file: full })
  }
  return pages.sort((a, b) => a.route.localeCompare(b.route))
}

const gzCache = new Map()
/** Gzipped size in bytes of a file under .next (by its /_next/… URL path). */
export function gzipSize(urlPath) {
  if (!gzCache.has(urlPath)) {
    const file = path.join(
      STATIC_DIR,
      decodeURIComponent(urlPath.replace(/^\/_next\//, '').split('?')[0]),
    )
    gzCache.set(urlPath, existsSync(file) ? gzipSync(readFileSync(file), { level: 6 }).length : 0)
  }
  return gzCache.get(urlPath)
}

const wireCache = new Map()
/**
 * Bytes on the wire of a file under .next (by its /_next/… URL path) for a browser that asks for
 * Brotli: its Brotli copy, which the server sends (server/static-assets.mjs), or gzipped as the
 * compression layer would send a file without one.
 */
export function wireSize(urlPath) {
  if (!wireCache.has(urlPath)) {
    const file = path.join(
      STATIC_DIR,
      decodeURIComponent(urlPath.replace(/^\/_next\//, '').split('?')[0]),
    )
    wireCache.set(
      urlPath,
      existsSync(`${file}.br`) ? statSync(`${file}.br`).size : gzipSize(urlPath),
    )
  }
  return wireCache.get(urlPath)
}

/**
 * The code each of the worker's dynamic imports brings, by what it holds: the model scenes
 * (three's GLTFLoader), the generated scenes (three's TorusKnotGeometry), the decoders' loaders
 * (KTX2's transcoder). Recognised by what their files hold, since their names are hashes.
 */
const IMPORT_KINDS = [
  ['models', (text) => text.includes('THREE.GLTFLoader')],
  ['generated', (text) => text.includes('"TorusKnotGeometry"')],
  ['decoders', (text) => text.includes('transcoderPending')],
]

/**
 * The scripts the 3D's render worker loads, as the page's chunk that starts it lists them
 * (Turbopack: `new Worker(new URL('render.worker.ts'))` becomes its worker bootstrap and a list of
 * chunks): three.js, R3F, the renderer (`chunks`). Then what it imports when a page needs it
 * (render/chunks.ts), found in those scripts and in the imported ones as Turbopack writes an
 * import (`Promise.all(["static/chunks/a.js", …].map(…))`): `imports`, the files of each, by
 * kind (IMPORT_KINDS). `lazy`: the decoders' loaders' files.
 */
export function workerChunks() {
  const none = { chunks: [], imports: {}, lazy: [] }
  const dir = path.join('.next', 'static', 'chunks')
  if (!existsSync(dir)) return none
  // Each file read once: an import's files are read for their kind, then scanned for imports.
  const texts = new Map()
  const read = (file) => {
    if (!texts.has(file))
      texts.set(file, readFileSync(path.join('.next', file.replace(/^\/_next\//, '')), 'utf8'))
    return texts.get(file)
  }
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.js')) continue
    const text = readFileSync(path.join(dir, entry), 'utf8')
    const at = text.indexOf('render.worker.')
    if (at < 0) continue
    const call = /"(static\/chunks\/turbopack-worker-[^"]+\.js)",\[([^\]]*)\]/.exec(text.slice(at))
    if (!call) continue
    const chunks = [call[1], ...[...call[2].matchAll(/"([^"]+)"/g)].map((m) => m[1])].map(
      (file) => `/_next/${file}`,
    )
    const imports = {}
    const seen = new Set()
    const scan = (files) => {
      for (const file of files) {
        if (seen.has(file)) continue
        seen.add(file)
        for (const list of read(file).matchAll(
          /Promise\.all\(\[((?:"static\/chunks\/[^"]+\.js",?)+)\]\.map/g,
        )) {
          const loaded = [...list[1].matchAll(/"([^"]+)"/g)].map((m) => `/_next/${m[1]}`)
          const kind = IMPORT_KINDS.find(([, holds]) => loaded.map(read).some(holds))?.[0]
          if (kind) imports[kind] = [...new Set([...(imports[kind] ?? []), ...loaded])]
          scan(loaded)
        }
      }
    }
    scan(chunks)
    return { chunks, imports, lazy: imports.decoders ?? [] }
  }
  return none
}

/** The script chunks a page's HTML loads before any interaction. */
export function initialScripts(html) {
  const scripts = new Set()
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js[^"]*)"/g))
    scripts.add(match[1].replace(/&amp;/g, '&'))
  return [...scripts].filter((src) => src.startsWith('/_next/'))
}

/** Chunks that hold three.js or react-three-fiber: the 3D chunk, which must load lazily. */
export function threeChunks() {
  const dir = path.join('.next', 'static', 'chunks')
  if (!existsSync(dir)) return []
  const out = []
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(full, 'utf8')
        if (
          text.includes('WebGLRenderer') ||
          text.includes('THREE.WebGLRenderer') ||
          text.includes('r3f')
        ) {
          out.push(`/_next/${path.relative('.next', full).split(path.sep).join('/')}`)
        }
      }
    }
  }
  walk(dir)
  return out
}

const sum = (list) => list.reduce((total, src) => total + gzipSize(src), 0)

/**
 * Each page's initial JS, and how much of it is the site's own (above the framework floor: the
 * not-found page of the same build).
 */
export function measureBundles() {
  const pages = prerenderedPages()
  const floorPage = pages.find((p) => p.route === '/_not-found')
  if (!floorPage)
    throw new Error(
      'No production build found (.next/server/app/_not-found.html): run the build first.',
    )
  const floorScripts = new Set(initialScripts(readFileSync(floorPage.file, 'utf8')))
  const floor = sum([...floorScripts])
  const three = threeChunks()
  const rows = pages
    .filter((p) => !p.route.startsWith('/_'))
    .map((p) => {
      const scripts = initialScripts(readFileSync(p.file, 'utf8'))
      const own = scripts.filter((s) => !floorScripts.has(s))
      return {
        route: p.route,
        totalGzip: sum(scripts),
        ownGzip: sum(own),
        loads3dUpFront: scripts.some((s) => three.includes(s)),
      }
    })
  return {
    floorGzip: floor,
    threeChunks: three.map((src) => ({ src, gzip: gzipSize(src) })),
    threeGzip: sum(three),
    worker: (() => {
      const { chunks, imports, lazy } = workerChunks()
      const sized = (list) => list.map((src) => ({ src, gzip: gzipSize(src), wire: wireSize(src) }))
      const total = (list) => ({
        gzip: list.reduce((t, src) => t + gzipSize(src), 0),
        wire: list.reduce((t, src) => t + wireSize(src), 0),
      })
      // What a page loads beyond the first scripts for its scenes: each kind's files (a file two
      // kinds share counted in each).
      const scenes = Object.fromEntries(
        ['models', 'generated'].map((kind) => [kind, total(imports[kind] ?? [])]),
      )
      return {
        chunks: sized(chunks),
        ...total(chunks),
        scenes,
        lazy: sized(lazy),
        lazyTotal: total(lazy),
      }
    })(),
    pages: rows,
  }
}
