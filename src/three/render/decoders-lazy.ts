// The glTF decoders' loaders, a chunk of their own (gltf-loader.ts imports it the first time a
// model needs one): three's Draco loader, and its KTX2 loader with the site's transcoder worker.
import type { WebGLRenderer } from 'three'
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js'
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js'
import { KTX2_WORKER_FILE } from './decoders'

/** KTX2Loader's own state, which `SiteKTX2Loader.init` sets as KTX2Loader's `init` would. */
type KTX2Internals = {
  transcoderPending: Promise<void> | null
  transcoderBinary: ArrayBuffer
  workerConfig: unknown
  workerPool: { setWorkerCreator: (create: () => Worker) => void }
}

/**
 * three's KTX2Loader with its transcoder worker started from the site's URL
 * (`KTX2_WORKER_FILE`) rather than from a `blob:` URL it writes. A `blob:` worker runs under the
 * page's policy, which refuses the transcoder's `new Function` (Emscripten's embind); the
 * served worker has a policy of its own that allows eval and nothing else (docs/security.md).
 * Everything else, the transcoding included, is KTX2Loader's.
 */
class SiteKTX2Loader extends KTX2Loader {
  constructor(private readonly base: string) {
    super()
  }

  init(): Promise<void> {
    const loader = this as unknown as KTX2Internals
    loader.transcoderPending ??= fetch(new URL('basis_transcoder.wasm', this.base))
      .then((response) => {
        if (!response.ok) throw new Error(`the KTX2 transcoder answered ${response.status}`)
        return response.arrayBuffer()
      })
      .then((binary) => {
        loader.transcoderBinary = binary
        loader.workerPool.setWorkerCreator(() => {
          const worker = new Worker(new URL(KTX2_WORKER_FILE, this.base))
          const transcoderBinary = loader.transcoderBinary.slice(0)
          worker.postMessage({ type: 'init', config: loader.workerConfig, transcoderBinary }, [
            transcoderBinary,
          ])
          return worker
        })
      })
    return loader.transcoderPending
  }
}

/** A Draco loader fetching its decoder from `base`, with `workers` workers at most. */
export function dracoLoader(base: string, workers: number): DRACOLoader {
  return new DRACOLoader().setDecoderPath(base).setWorkerLimit(workers)
}

/** A KTX2 loader for the renderer `gl` (the formats it can take), its transcoder from `base`. */
export function ktx2Loader(base: string, workers: number, gl: WebGLRenderer): KTX2Loader {
  const ktx2 = new SiteKTX2Loader(base).setWorkerLimit(workers)
  ktx2.detectSupport(gl)
  return ktx2
}
