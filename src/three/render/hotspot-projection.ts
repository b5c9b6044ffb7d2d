// Where a viewer's hotspots fall on its stage, frame by frame: each one's point projected to the
// stage's CSS pixels, and whether a visitor can see it (it faces the camera, lies in the view and
// no part of the model is in front of it). Runs in the renderer (a worker, or the main thread);
// the page moves its buttons to these places (CanvasHost.tsx). three.js's own projection and
// raycaster.
import { Matrix3, Raycaster, Vector3, type Camera, type Object3D } from 'three'
import type { SceneHotspot } from '../store'
import type { HotspotPlace } from '../protocol'

/** A hotspot's point and normal in the world (the scene's coordinates), this frame. */
export type WorldPin = { point: Vector3; normal: Vector3 }

/** The hotspots' points and normals in world space: `model`'s own coordinates moved as it is. */
export function worldPins(model: Object3D, hotspots: readonly SceneHotspot[]): WorldPin[] {
  model.updateWorldMatrix(true, false)
  // Normals go through the normal matrix (the inverse transpose): an unevenly scaled node would
  // skew them otherwise.
  const normalMatrix = new Matrix3().getNormalMatrix(model.matrixWorld)
  return hotspots.map((hotspot) => ({
    point: new Vector3(...hotspot.position).applyMatrix4(model.matrixWorld),
    normal: new Vector3(...hotspot.normal).applyNormalMatrix(normalMatrix),
  }))
}

/**
 * Each pin projected on a stage of `width` × `height` CSS pixels, as `camera` sees it. `shown` is
 * false when the surface faces away from the camera, or the point is behind it or off the stage;
 * occlusion by the model itself is `occluded`'s (it casts rays, so it is checked less often).
 */
export function projectPins(
  pins: readonly WorldPin[],
  camera: Camera,
  width: number,
  height: number,
): HotspotPlace[] {
  camera.updateMatrixWorld()
  const eye = new Vector3().setFromMatrixPosition(camera.matrixWorld)
  const ndc = new Vector3()
  const toEye = new Vector3()
  return pins.map(({ point, normal }) => {
    ndc.copy(point).project(camera)
    const x = ((ndc.x + 1) / 2) * width
    const y = ((1 - ndc.y) / 2) * height
    const facing = normal.dot(toEye.subVectors(eye, point)) > 0
    const inView = ndc.z > -1 && ndc.z < 1 && x >= 0 && x <= width && y >= 0 && y <= height
    return { x, y, shown: facing && inView }
  })
}

/**
 * Whether some part of `model` lies between the camera and each pin's point: a ray from the
 * camera, stopped `tolerance` metres short of the point (the surface the point lies on is not in
 * front of it).
 */
export function occluded(
  pins: readonly WorldPin[],
  model: Object3D,
  camera: Camera,
  tolerance: number,
): boolean[] {
  camera.updateMatrixWorld()
  model.updateWorldMatrix(true, true)
  const eye = new Vector3().setFromMatrixPosition(camera.matrixWorld)
  const raycaster = new Raycaster()
  const direction = new Vector3()
  return pins.map(({ point }) => {
    const distance = direction.subVectors(point, eye).length()
    if (distance <= tolerance) return false
    raycaster.set(eye, direction.normalize())
    raycaster.far = distance - tolerance
    // Faces only: a model's lines or points do not hide a hotspot.
    return raycaster.intersectObject(model, true).some((hit) => hit.face)
  })
}
