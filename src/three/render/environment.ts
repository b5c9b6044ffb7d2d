import { PMREMGenerator, type Texture, type WebGLRenderer } from 'three'
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js'

/**
 * The environment map for reflections: three's RoomEnvironment, prefiltered in the browser. It is
 * generated, not downloaded, so it is self-hosted by construction (drei's `Environment` presets
 * would fetch HDR files from a CDN).
 */
export function roomEnvironment(gl: WebGLRenderer): Texture {
  const pmrem = new PMREMGenerator(gl)
  const room = new RoomEnvironment()
  const texture = pmrem.fromScene(room, 0.04).texture
  room.dispose()
  pmrem.dispose()
  return texture
}
