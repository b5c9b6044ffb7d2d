// How the renderer reads a glTF model: three's GLTFLoader with every decoder a designer's export
// may need, each fetched from the site's own origin, and only when a model asks for it.
//
// - meshopt (EXT_meshopt_compression) ships inside three, its WebAssembly inlined: nothing to
//   fetch, and in the 3D chunk (7 KB gzipped): the site's sample models and many exports use it.
// - Draco (KHR_draco_mesh_compression) and Basis (KHR_texture_basisu, KTX2) are three's own
//   decoders, served by the site at `DECODERS_PATH` (src/app/3d-decoders/); each loader fetches its
//   files on its first model that needs them and decodes in Web Workers of its own. (Draco's
//   decoder JS is a plain `blob:` worker; the KTX2 transcoder needs eval, see decoders-lazy.ts.)
// - Embedded images (JPEG, PNG, WebP, AVIF) are decoded from their bytes, not from a `blob:` URL
//   (see `embeddedImages`).
//
// Draco's and KTX2's loaders are not in the 3D chunk (34 KB gzipped, KTX2's with its Zstandard
// decoder): GLTFLoader is given stand-ins that import the real ones (decoders-lazy.ts, a chunk of
// their own) the first time a model needs one, and fetch the decoder's own files at that moment,
// side by side with the chunk. A model that needs neither (the sample models) fetches neither.
import { Texture, type WebGLRenderer } from 'three'
import type { GLTFLoader, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js'
import type { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js'
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
// KHR_materials_variants, which three's GLTFLoader leaves to this plugin (its docs point to it):
// the variants' names and a way to switch a model's materials to one, loading them on demand.
import MaterialsVariants from 'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js'
import { unsupportedRequired } from '@rules/model-formats'
import { DECODER_FILES, DECODERS_PATH } from './decoders'
import { decodersChunk } from './decoder-prefetch'
import { fetchAhead } from '../fetch-ahead'

/**
 * The decoders' worker count each: the page shares two cores or so with everything else. In the
 * render worker, one: there Firefox (153 ESR, WebGL in llvmpipe) now and then hung the render
 * worker for good inside `new Worker()` as it made a decoder's second worker right after its
 * first, and the model stayed `loading` (docs/3d-models.md, "Decoders"). A second worker only
 * split one model's meshes between two threads, beside the renderer's own. Not `typeof window`:
 * the build folds that to the page's answer in every client chunk, the worker's included.
 */
const DECODER_WORKERS = 'WorkerGlobalScope' in globalThis ? 1 : 2

const DRACO = 'KHR_draco_mesh_compression'
const BASIS = 'KHR_texture_basisu'

type Decoders = { draco: Promise<DRACOLoader>; ktx2: Promise<KTX2Loader> }
const decodersByRenderer = new WeakMap<WebGLRenderer, Partial<Decoders>>()

/**
 * One Draco loader and one KTX2 loader per renderer (each keeps its workers and its decoder once
 * fetched), made on first use. Making them fetches nothing: they fetch on their first decode.
 */
function decoderFor<K extends keyof Decoders>(gl: WebGLRenderer, kind: K): Decoders[K] {
  let decoders = decodersByRenderer.get(gl)
  if (!decoders) decodersByRenderer.set(gl, (decoders = {}))
  // In a worker, a relative URL would resolve against the worker's script; the origin is the
  // page's either way.
  const base = new URL(DECODERS_PATH, self.location.origin).href
  // The decoder's files from now, beside the chunk, rather than once it has arrived: the loader
  // then finds them in the HTTP cache (served for good under three's revision).
  if (!decoders[kind])
    for (const file of DECODER_FILES[kind === 'draco' ? DRACO : BASIS] ?? [])
      void fetchAhead(new URL(file, base))
  return (decoders[kind] ??= decodersChunk
    .load()
    .then((chunk) =>
      kind === 'draco'
        ? chunk.dracoLoader(base, DECODER_WORKERS)
        : chunk.ktx2Loader(base, DECODER_WORKERS, gl),
    ) as Decoders[K])
}

/**
 * What GLTFLoader calls on its Draco loader (`decodeDracoFile`, and `preload` as it meets the
 * extension), handed on to the real one once its chunk is here.
 */
function lazyDraco(gl: WebGLRenderer): DRACOLoader {
  // Untyped in @types/three: GLTFLoader's call, (buffer, onLoad, attributeIds, attributeTypes,
  // colorSpace, onError).
  type Decode = (...args: unknown[]) => void
  const stand = {
    preload() {
      void decoderFor(gl, 'draco').then(
        (draco) => draco.preload(),
        () => {},
      )
      return stand
    },
    decodeDracoFile(...args: unknown[]) {
      const onError = args[5] as ((error: unknown) => void) | undefined
      decoderFor(gl, 'draco').then(
        (draco) => (draco as unknown as { decodeDracoFile: Decode }).decodeDracoFile(...args),
        (error: unknown) => onError?.(error),
      )
    },
  }
  return stand as unknown as DRACOLoader
}

/** What GLTFLoader calls on its KTX2 loader: `parse` (a GLB's image) and `load` (a file's). */
function lazyKtx2(gl: WebGLRenderer): KTX2Loader {
  const stand = {
    isKTX2Loader: true,
    parse(...args: Parameters<KTX2Loader['parse']>) {
      const onError = args[2]
      decoderFor(gl, 'ktx2').then(
        (ktx2) => ktx2.parse(...args),
        (error: unknown) => onError?.(error),
      )
    },
    load(...args: Parameters<KTX2Loader['load']>) {
      const onError = args[3]
      decoderFor(gl, 'ktx2').then(
        (ktx2) => ktx2.load(...args),
        (error: unknown) => onError?.(error),
      )
    },
  }
  return stand as unknown as KTX2Loader
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
  loader.setMeshoptDecoder(MeshoptDecoder)
  loader.setDRACOLoader(lazyDraco(gl))
  loader.setKTX2Loader(lazyKtx2(gl))
  loader.register(requiredExtensions)
  loader.register(embeddedImages)
  loader.register((parser) => new MaterialsVariants(parser))
}
