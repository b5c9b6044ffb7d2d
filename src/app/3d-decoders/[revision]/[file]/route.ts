// three's own Draco decoder and Basis (KTX2) transcoder, served from the site's origin: no CDN. The
// renderer's loaders ask for these files (src/three/render/gltf-loader.ts) only when a model needs
// them. The path carries three's revision, so a file never changes under its URL; each is
// prerendered at build time.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { REVISION } from 'three'
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js'
import { KTX2_WORKER_FILE } from '@/three/render/decoders'

const LIBS = path.join(process.cwd(), 'node_modules/three/examples/jsm/libs')
const read = (file: string) => readFile(path.join(LIBS, file))

/**
 * The KTX2 transcoder's worker, as KTX2Loader writes it into a `blob:` URL (its constants, the
 * transcoder, its worker function), but served from this URL: a `blob:` worker runs under the
 * page's policy, whose `script-src` has no `'unsafe-eval'`, and the transcoder (Emscripten's
 * embind) builds its bindings with `new Function`. Served here, the worker has a policy of its
 * own (next.config.ts): eval, and nothing else, not even a fetch (docs/security.md).
 */
async function transcoderWorker(): Promise<Buffer> {
  // KTX2Loader's statics, untyped in @types/three: the worker function and its constants.
  const { BasisWorker, EngineFormat, EngineType, TranscoderFormat, BasisFormat } =
    KTX2Loader as unknown as Record<string, unknown>
  const worker = String(BasisWorker)
  const body = [
    '/* constants */',
    `let _EngineFormat = ${JSON.stringify(EngineFormat)}`,
    `let _EngineType = ${JSON.stringify(EngineType)}`,
    `let _TranscoderFormat = ${JSON.stringify(TranscoderFormat)}`,
    `let _BasisFormat = ${JSON.stringify(BasisFormat)}`,
    '/* basis_transcoder.js */',
    String(await read('basis/basis_transcoder.js')),
    '/* worker */',
    worker.substring(worker.indexOf('{') + 1, worker.lastIndexOf('}')),
  ].join('\n')
  return Buffer.from(body)
}

/** The files a loader may ask for: how each is made, and its type. */
const FILES: Record<string, { make: () => Promise<Buffer>; type: string }> = {
  'draco_wasm_wrapper.js': {
    make: () => read('draco/gltf/draco_wasm_wrapper.js'),
    type: 'text/javascript',
  },
  'draco_decoder.wasm': {
    make: () => read('draco/gltf/draco_decoder.wasm'),
    type: 'application/wasm',
  },
  'basis_transcoder.wasm': {
    make: () => read('basis/basis_transcoder.wasm'),
    type: 'application/wasm',
  },
  [KTX2_WORKER_FILE]: { make: transcoderWorker, type: 'text/javascript' },
}

export const dynamic = 'force-static'
export const dynamicParams = false

export function generateStaticParams() {
  return Object.keys(FILES).map((file) => ({ revision: `r${REVISION}`, file }))
}

export async function GET(
  _request: Request,
  { params }: { params: Promise<{ revision: string; file: string }> },
): Promise<Response> {
  const { revision, file } = await params
  const entry = FILES[file]
  if (revision !== `r${REVISION}` || !entry) return new Response('Not found', { status: 404 })
  return new Response(new Uint8Array(await entry.make()), {
    headers: {
      'Content-Type': entry.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  })
}
