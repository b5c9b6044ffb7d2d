// How the renderer reads a glTF model: three's GLTFLoader with every decoder a designer's export
// may need, each fetched from the site's own origin, and only when a model asks for it.
//
// - meshopt (EXT_meshopt_compression) ships inside three, its WebAssembly inlined: nothing to fetch.
// - Draco (KHR_draco_mesh_compression) and Basis (KHR_texture_basisu, KTX2) are three's own
//   decoders, served by the site at `DECODERS_PATH` (src/app/3d-decoders/); each loader fetches its
//   files on its first model that needs them and decodes in Web Workers of its own. (Draco's
//   decoder JS is a plain `blob:` worker; the KTX2 transcoder needs eval, see `SiteKTX2Loader`.)
// - Embedded images (JPEG, PNG, WebP, AVIF) are decoded from their bytes, not from a `blob:` URL
//   (see `embeddedImages`).
import { Texture, type WebGLRenderer } from 'three'
import type { GLTFLoader, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js'
import { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
// KHR_materials_variants, which three's GLTFLoader leaves to this plugin (its docs point to it):
// the variants' names and a way to switch a model's materials to one, loading them on demand.
import MaterialsVariants from 'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js'
import { unsupportedRequired } from '../model-formats'
import { DECODERS_PATH, KTX2_WORKER_FILE } from './decoders'

/**
 * The decoders' worker count each: the page shares two cores or so with everything else. In the
 * render worker, one: there Firefox (153 ESR, WebGL in llvmpipe) now and then hung the render
 * worker for good inside `new Worker()` as it made a decoder's second worker right after its
 * first, and the model stayed `loading` (docs/3d-models.md, "Decoders"). A second worker only
 * split one model's meshes between two threads, beside the renderer's own. Not `typeof window`:
 * the build folds that to the page's answer in every client chunk, the worker's included.
 */
const DECODER_WORKERS = 'WorkerGlobalScope' in globalThis ? 1 : 2

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

type Decoders = { draco: DRACOLoader; ktx2: KTX2Loader }
const decodersByRenderer = new WeakMap<WebGLRenderer, Decoders>()

/**
 * One Draco loader and one KTX2 loader per renderer (each keeps its workers and its decoder once
 * fetched). Making them fetches nothing: they fetch on their first decode.
 */
function decodersFor(gl: WebGLRenderer): Decoders {
  let decoders = decodersByRenderer.get(gl)
  if (!decoders) {
    // In a worker, a relative URL would resolve against the worker's script; the origin is the
    // page's either way.
    const base = new URL(DECODERS_PATH, self.location.origin).href
    const draco = new DRACOLoader().setDecoderPath(base).setWorkerLimit(DECODER_WORKERS)
    const ktx2 = new SiteKTX2Loader(base).setWorkerLimit(DECODER_WORKERS)
    ktx2.detectSupport(gl)
    decoders = { draco, ktx2 }
    decodersByRenderer.set(gl, decoders)
  }
  return decoders
}

type ImageSource = { bufferView?: number; mimeType?: string; extras?: Record<string, unknown> }
type Parser = GLTFParser & {
  sourceCache: Record<number, Promise<Texture>>
  json: { images: ImageSource[] }
}

/**
 * A GLTFLoader plugin that decodes embedded images (a GLB's textures) from their bytes with
 * `createImageBitmap(blob)`. GLTFLoader itself wraps the bytes in a `blob:` URL and fetches it
 * (ImageBitmapLoader), which the site's Content Security Policy refuses (`connect-src 'self'`
 * has no `blob:`), so every texture failed. Decoding the Blob directly needs no URL and no
 * fetch, and no wider policy. Where GLTFLoader uses an `<img>` instead (an engine without
 * usable `createImageBitmap`), its `blob:` URL is an image source, which `img-src` allows.
 */
function embeddedImages(parser: GLTFParser) {
  const p = parser as Parser
  const original = p.loadImageSource.bind(p)
  p.loadImageSource = (sourceIndex, loader) => {
    const source = p.json.images[sourceIndex]
    const bitmaps = (loader as { isImageBitmapLoader?: boolean }).isImageBitmapLoader === true
    if (!source || source.bufferView === undefined || !bitmaps) return original(sourceIndex, loader)
    const cached = p.sourceCache[sourceIndex]
    if (cached) return cached.then((texture) => texture.clone())
    const options = (loader as { options?: ImageBitmapOptions }).options ?? {}
    const promise = p
      .getDependency('bufferView', source.bufferView)
      .then((bytes: ArrayBuffer) =>
        createImageBitmap(new Blob([bytes], { type: source.mimeType }), {
          ...options,
          colorSpaceConversion: 'none',
        }),
      )
      .then((bitmap) => {
        const texture = new Texture(bitmap)
        texture.needsUpdate = true
        if (source.extras) Object.assign(texture.userData, source.extras)
        texture.userData.mimeType = source.mimeType
        return texture
      })
      .catch((error: unknown) => {
        // As GLTFLoader says it; the material is then drawn without this texture.
        console.error(`THREE.GLTFLoader: Couldn't decode image ${sourceIndex}:`, error)
        throw error
      })
    p.sourceCache[sourceIndex] = promise
    return promise
  }
  return { name: 'FACET_embedded_images' }
}

/**
 * A GLTFLoader plugin that refuses a model requiring an extension the renderer does not draw.
 * GLTFLoader only warns and draws the model anyway, wrongly (a required extension is one the
 * model cannot be drawn without); the site shows the poster and says why instead.
 */
function requiredExtensions(parser: GLTFParser) {
  const json = parser.json as { extensionsRequired?: string[] }
  const reason = unsupportedRequired(json.extensionsRequired)
  // GLTFLoader calls plugin factories inside its parse's try: this becomes the load's error.
  if (reason) throw new Error(reason)
  return { name: 'FACET_required_extensions' }
}

/** Configures a GLTFLoader (useLoader's extension callback) for the renderer `gl`. */
export function configureGltfLoader(loader: GLTFLoader, gl: WebGLRenderer): void {
  const { draco, ktx2 } = decodersFor(gl)
  loader.setMeshoptDecoder(MeshoptDecoder)
  loader.setDRACOLoader(draco)
  loader.setKTX2Loader(ktx2)
  loader.register(requiredExtensions)
  loader.register(embeddedImages)
  loader.register((parser) => new MaterialsVariants(parser))
}

/** The decoder files each extension's loader fetches (DRACOLoader's WebAssembly build; KTX2's). */
const DECODER_FILES: Record<string, string[]> = {
  KHR_draco_mesh_compression: ['draco_wasm_wrapper.js', 'draco_decoder.wasm'],
  KHR_texture_basisu: ['basis_transcoder.wasm', KTX2_WORKER_FILE],
}

/**
 * The extensions a GLB's JSON chunk says it uses; none for anything else (a `.gltf`, bytes that
 * are not glTF): its loader will say what it is.
 */
export function glbExtensionsUsed(bytes: ArrayBuffer): string[] {
  const view = new DataView(bytes)
  // Header: magic "glTF", version, length; then the JSON chunk: its length and type "JSON".
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== 0x46546c67) return []
  if (view.getUint32(16, true) !== 0x4e4f534a) return []
  const length = view.getUint32(12, true)
  if (20 + length > bytes.byteLength) return []
  try {
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 20, length))) as {
      extensionsUsed?: unknown
    }
    return Array.isArray(json.extensionsUsed)
      ? json.extensionsUsed.filter((e): e is string => typeof e === 'string')
      : []
  } catch {
    return []
  }
}

/**
 * Fetches, ahead of its loader, each decoder file the model in `bytes` will need (served for good
 * under a path that names three's revision, so the loader then finds them in the HTTP cache):
 * the renderer warmed up before its canvas (renderer.tsx, `warm`) has nothing to fetch after the
 * visitor's scroll but its context. Failures are left for the loader to meet and report.
 */
export function prefetchDecoders(bytes: ArrayBuffer): void {
  const base = new URL(DECODERS_PATH, self.location.origin)
  for (const extension of glbExtensionsUsed(bytes))
    for (const file of DECODER_FILES[extension] ?? [])
      fetch(new URL(file, base)).then(
        (response) => response.arrayBuffer(),
        () => {},
      )
}
