// The procedural scenes' light, and what every environment is made with: a scene drawn into a
// prefiltered (PMREM) map. Apart from environment.ts (the presets, and the files' readers such as
// three's HDRLoader), which only a model's scene needs: the generated scenes' chunk holds this, and
// the model scenes' chunk both.
import { Mesh, PMREMGenerator, type Scene, type Texture, type WebGLRenderer } from 'three'
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js'
import { roomMade } from './environment-cache'

/** The generated environment of the procedural scenes and of `neutral`: three's RoomEnvironment. */
export function roomEnvironment(gl: WebGLRenderer): Texture {
  return prefiltered(gl, new RoomEnvironment())
}

/** A scene drawn into a prefiltered map, then let go. */
export function prefiltered(gl: WebGLRenderer, scene: Scene): Texture {
  const pmrem = new PMREMGenerator(gl)
  const texture = pmrem.fromScene(scene, 0.04).texture
  release(scene)
  pmrem.dispose()
  return texture
}

/** Lets a preset's scene go. */
export function release(scene: Scene) {
  scene.traverse((object) => {
    if (object instanceof Mesh) {
      object.geometry.dispose()
      object.material.dispose()
    }
  })
}

/** `roomEnvironment(gl)`, made once per renderer and shared by its procedural scenes. */
export function sharedRoomEnvironment(gl: WebGLRenderer): Texture {
  let texture = roomMade.get(gl)
  if (!texture) roomMade.set(gl, (texture = roomEnvironment(gl)))
  return texture
}
