// Where the site serves the renderer's decoders (src/app/3d-decoders/): one place for their
// location, as model-viewer keeps its decoder locations in one configuration. The renderer and
// the route that serves them both read it.
import { REVISION } from 'three'

/**
 * The folder of three's Draco decoder and Basis transcoder. It names three's revision, so a new
 * three is a new URL and each file can be cached for good.
 */
export const DECODERS_PATH = `/3d-decoders/r${REVISION}/`

/** The KTX2 transcoder's worker script, served with a policy of its own. */
export const KTX2_WORKER_FILE = 'ktx2_transcoder.worker.js'

/** The decoder files each extension's loader fetches (DRACOLoader's WebAssembly build; KTX2's). */
export const DECODER_FILES: Record<string, string[]> = {
  KHR_draco_mesh_compression: ['draco_wasm_wrapper.js', 'draco_decoder.wasm'],
  KHR_texture_basisu: ['basis_transcoder.wasm', KTX2_WORKER_FILE],
}

/**
 * Each extension's decoder files, in bytes on the wire as the site sends them to a browser that
 * asks for Brotli (three r187: Draco 48.7 + 9.8 KB, Basis 198.8 + 15.1 KB), rounded up; for the
 * warm-up's count. loading.spec checks that the served files are no larger.
 */
export const DECODER_WIRE_BYTES: Record<string, number> = {
  KHR_draco_mesh_compression: 60 * 1024,
  KHR_texture_basisu: 216 * 1024,
}
