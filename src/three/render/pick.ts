// `?debug3d=pick` (docs/3d-models.md): the point of a model under a click, for an editor placing a
// hotspot. Runs in the renderer (a worker, or the main thread); three.js's own raycaster.
import { Matrix3, Matrix4, Raycaster, Vector2, type Camera, type Object3D } from 'three'
import type { PickedPoint } from '../store'

const round = (value: number) => Number(value.toFixed(3)) || 0

/**
 * `?debug3d=pick`: the point of `model` under `x`, `y` (normalized device coordinates in the
 * slot's view), in the model's own coordinates (its glTF scene's: what a hotspot's position is
 * written in), with the surface's normal there; null when nothing of the model is under it.
 */
export function pickPoint(
  model: Object3D,
  camera: Camera,
  x: number,
  y: number,
): PickedPoint | null {
  model.updateWorldMatrix(true, true)
  const raycaster = new Raycaster()
  raycaster.setFromCamera(new Vector2(x, y), camera)
  const hit = raycaster.intersectObject(model, true).find((h) => h.face)
  if (!hit?.face) return null
  const toModel = new Matrix4().copy(model.matrixWorld).invert()
  const position = hit.point.clone().applyMatrix4(toModel)
  // Normals go through each transform's normal matrix (its inverse transpose): a node scaled
  // unevenly, as exports often are, would skew them otherwise.
  const world = hit.face.normal
    .clone()
    .applyNormalMatrix(new Matrix3().getNormalMatrix(hit.object.matrixWorld))
  // The side the camera sees: a face seen from behind (double-sided) faces the other way.
  if (world.dot(raycaster.ray.direction) > 0) world.negate()
  const normal = world.applyNormalMatrix(new Matrix3().getNormalMatrix(toModel))
  return {
    position: [round(position.x), round(position.y), round(position.z)],
    normal: [round(normal.x), round(normal.y), round(normal.z)],
  }
}
