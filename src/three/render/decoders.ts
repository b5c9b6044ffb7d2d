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
