import {
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Vector3,
} from 'three'
import { describe, expect, it } from 'vitest'
import { pickPoint } from '../../src/three/render/pick'

/**
 * `?debug3d=pick` (src/three/render/pick.ts): the point under a click, in the model's own
 * coordinates, and the surface's normal there, as a studio's exports place and scale their nodes.
 */

/** A camera at `from`, looking at the origin. */
function cameraAt(from: [number, number, number]): PerspectiveCamera {
  const camera = new PerspectiveCamera(35, 1, 0.01, 100)
  camera.position.set(...from)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  return camera
}

/**
 * A model whose one node is a plane turned to face (1, 1, 0), scaled unevenly (3, 1, 1) as an
 * export may scale a node: its surface's normal is then (1/3, 1, 0), not (3, 1, 0). The model sits
 * in the scene moved and turned (the viewer centres it on a turntable).
 */
function slopedModel(): { scene: Group; model: Group } {
  const plane = new Mesh(new PlaneGeometry(1, 1), new MeshBasicMaterial({ side: DoubleSide }))
  plane.geometry.rotateY(Math.PI / 2).rotateZ(Math.PI / 4)
  plane.scale.set(3, 1, 1)
  const model = new Group().add(plane)
  model.position.set(0.5, -0.2, 0)
  const scene = new Group().add(model)
  scene.rotation.y = 0.3
  scene.updateMatrixWorld(true)
  return { scene, model }
}

const unit = (v: [number, number, number]) => new Vector3(...v).normalize().toArray()

describe('the point under a click', () => {
  it('is in the model’s own coordinates, with the normal of an unevenly scaled node', () => {
    const { model } = slopedModel()
    // The ray through the middle of the view, from a camera in front of the model's plane.
    const centre = model.localToWorld(new Vector3(0, 0, 0))
    const camera = cameraAt([centre.x + 2, centre.y + 2, centre.z + 0.5])
    camera.lookAt(centre)
    camera.updateMatrixWorld()
    const picked = pickPoint(model, camera, 0, 0)
    expect(picked).not.toBeNull()
    expect(picked!.position.map((c) => Math.abs(c))).toEqual(
      [0, 0, 0].map(() => expect.closeTo(0, 2)),
    )
    const [x, y, z] = picked!.normal
    const expected = unit([1 / 3, 1, 0])
    expect(x).toBeCloseTo(expected[0]!, 2)
    expect(y).toBeCloseTo(expected[1]!, 2)
    expect(z).toBeCloseTo(expected[2]!, 2)
  })

  it('gives the normal of the side the camera sees, and null beside the model', () => {
    const { model } = slopedModel()
    const centre = model.localToWorld(new Vector3(0, 0, 0))
    // From behind the double-sided plane: the normal faces that camera.
    const behind = cameraAt([centre.x - 2, centre.y - 2, centre.z + 0.5])
    behind.lookAt(centre)
    behind.updateMatrixWorld()
    const picked = pickPoint(model, behind, 0, 0)
    const expected = unit([-1 / 3, -1, 0])
    expect(picked!.normal[0]).toBeCloseTo(expected[0]!, 2)
    expect(picked!.normal[1]).toBeCloseTo(expected[1]!, 2)
    expect(pickPoint(model, behind, 0.95, 0.95)).toBeNull()
  })
})
