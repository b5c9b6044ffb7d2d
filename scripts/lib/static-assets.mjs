// The build's static assets (`/_next/static/…`), made cheaper to load and to serve.
//
// After `next build`, `finishBuild()`:
// 1. marks each script that pages load up front with V8's explicit compile hint
//    (`//# allFunctionsCalledOnLoad`). Chromium then compiles the whole file on the background
//    thread that streams it, instead of compiling each function on the main thread the first time
//    it runs; measured here, the main-thread JavaScript of loading the home page fell from about
//    250 ms to 70 ms (CPU profile, unthrottled). Scripts loaded later (the 3D chunk) are left
//    lazy: most of three.js never runs on a given page. Turbopack has no banner option, so the
//    comment is added here.
// 2. writes a Brotli copy (quality 11) beside every compressible asset: about 14 % smaller than
//    the quality the server could afford per request, and no compression work per request.
//    Prerendered route answers that never change under their URL (the 3D decoders, whose path
//    names three's revision) get one too: `X.body.br` beside Next's `X.body`.
//
// The production server serves those copies (server/static-assets.mjs).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants } from 'node:zlib'
import path from 'node:path'
import {
  COMPRESSIBLE_TYPES,
  filesUnder,
  immutableRouteBodies,
} from '../../server/static-assets.mjs'
import { initialScripts, prerenderedPages } from './bundles.mjs'

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 512

/**
 * The scripts that pages load before any interaction: the framework's (every page) and those
 * named by a `<script src>` in any prerendered page. Paths are relative to `distDir`.
 */
export function initialScriptFiles(distDir) {
  const files = new Set()
  const manifest = path.join(distDir, 'build-manifest.json')
  if (existsSync(manifest)) {
    const { rootMainFiles = [], polyfillFiles = [] } = JSON.parse(readFileSync(manifest, 'utf8'))
    for (const file of [...rootMainFiles, ...polyfillFiles]) files.add(file)
  }
  for (const page of prerenderedPages(path.join(distDir, 'server', 'app'))) {
    for (const src of initialScripts(readFileSync(page.file, 'utf8'))) {
      const file = decodeURIComponent(src.split('?')[0].slice('/_next/'.length))
      if (file.startsWith('static/') && file.endsWith('.js')) files.add(file)
    }
  }
  return [...files].sort()
}

/** Adds the compile hint and the Brotli copies. Safe to run twice. Returns what it did. */
export function finishBuild(distDir = process.env.NEXT_DIST_DIR || '.next') {
  const staticDir = path.join(distDir, 'static')
  if (!existsSync(staticDir)) throw new Error(`${staticDir} does not exist: run next build first`)
  const hinted = []
  for (const file of initialScriptFiles(distDir)) {
    const full = path.join(distDir, file)
    if (!existsSync(full)) continue
    const text = readFileSync(full, 'utf8')
    if (text.startsWith(COMPILE_HINT)) continue
    writeFileSync(full, COMPILE_HINT + text)
    hinted.push(file)
  }
  let compressed = 0
  let bytes = 0
  let brotliBytes = 0
  const targets = [
    ...filesUnder(staticDir).filter((full) => COMPRESSIBLE_TYPES[path.extname(full)]),
    ...immutableRouteBodies(distDir).map((route) => route.body),
  ]
  for (const full of targets) {
    const body = readFileSync(full)
    if (body.length < MIN_BYTES) continue
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
    if (br.length >= body.length) continue
    writeFileSync(`${full}.br`, br)
    compressed += 1
    bytes += body.length
    brotliBytes += br.length
  }
  return { hinted, compressed, bytes, brotliBytes }
}

/** A line saying what finishBuild() did. */
export function describeFinishedBuild({ hinted, compressed, bytes, brotliBytes }) {
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`
  return (
    `Static assets: compile hint on ${hinted.length} initial script(s); ` +
    `${compressed} Brotli copies (${kb(bytes)} → ${kb(brotliBytes)}).`
  )
}
