import { Logger, NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import draco3d from 'draco3dgltf'
import { MeshoptDecoder, MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer'

let shared: Promise<NodeIO> | undefined

/**
 * One glTF-Transform reader and writer for the process, with every decoder the renderer has
 * (Draco, meshopt; KTX2 is kept as it is, never decoded) and the meshopt encoder, so any model
 * the site draws reads here too. Made once: the Draco module takes a moment to instantiate.
 */
export function modelIO(): Promise<NodeIO> {
  shared ??= (async () => {
    await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready, MeshoptSimplifier.ready])
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.ERROR))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'meshopt.decoder': MeshoptDecoder,
        'meshopt.encoder': MeshoptEncoder,
        'draco3d.decoder': await draco3d.createDecoderModule(),
      })
  })()
  return shared
}
