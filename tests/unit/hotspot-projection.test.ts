import { BoxGeometry, Group, Mesh, MeshBasicMaterial, PerspectiveCamera } from 'three'
import { describe, expect, it } from 'vitest'
import { occluded, projectPins, worldPins } from '../../src/three/render/hotspot-projection'
import type { SceneHotspot } from '../../src/three/store'

/**
 * A viewer's hotspots on its stage (src/three/render/hotspot-projection.ts): where each point
 * falls in CSS pixels, and whether a visitor can see it (facing the camera, in the view, not
 * behind the model).
 */

const WIDTH = 600
const HEIGHT = 400

/** A camera on the z axis at `distance`, looking at the origin, for a 600 × 400 stage. */
function camera(distance = 5): PerspectiveCamera {
  const camera = new PerspectiveCamera(35, WIDTH / HEIGHT, 0.01, 100)
  camera.position.set(0, 0, distance)
  camera.lookAt(0, 0, 0)
  camera.updateMatrixWorld()
  return camera
}

/** A model: one box 1 m on each side, at the model's origin. */
function boxModel(): Group {
  const model = new Group().add(new Mesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial()))
  model.updateMatrixWorld(true)
  return model
}

const pin = (position: SceneHotspot['position'], normal: SceneHotspot['normal']): SceneHotspot => ({
  label: 'x',
  detailId: 'x',
  position,
  normal,
  view: null,
})

describe('hotspot projection', () => {
  it("puts a point on the camera's axis at the stage's centre, and one to its right and above to the right and above", () => {
    const model = boxModel()
    const [centre, upRight] = projectPins(
      worldPins(model, [pin([0, 0, 0.5], [0, 0, 1]), pin([0.5, 0.5, 0.5], [0, 0, 1])]),
      camera(),
      WIDTH,
      HEIGHT,
    )
    expect(centre!.x).toBeCloseTo(WIDTH / 2, 6)
    expect(centre!.y).toBeCloseTo(HEIGHT / 2, 6)
    expect(centre!.shown).toBe(true)
    expect(upRight!.x).toBeGreaterThan(WIDTH / 2)
    expect(upRight!.y).toBeLessThan(HEIGHT / 2)
  })

  it('follows the model as it moves and turns: a point on the front face turned to the side is not shown', () => {
    const model = boxModel()
    const turntable = new Group().add(model)
    turntable.rotation.y = Math.PI / 2 + 0.2
    turntable.updateMatrixWorld(true)
    const [front] = projectPins(
      worldPins(model, [pin([0, 0, 0.5], [0, 0, 1])]),
      camera(),
      WIDTH,
      HEIGHT,
    )
    expect(front!.shown).toBe(false)
    // Moved half a metre right in the scene: the point is right of the centre.
    turntable.rotation.y = 0
    model.position.set(0.5, 0, 0)
    turntable.updateMatrixWorld(true)
    const [moved] = projectPins(
      worldPins(model, [pin([0, 0, 0.5], [0, 0, 1])]),
      camera(),
      WIDTH,
      HEIGHT,
    )
    expect(moved!.shown).toBe(true)
    expect(moved!.x).toBeGreaterThan(WIDTH / 2 + 10)
  })

  it('turns normals with the normal matrix: an unevenly scaled model keeps a sloped surface facing the camera', () => {
    // A surface facing (1, 0, 1) in the model, which the export scales 0.1 along x: in the scene
    // it faces (10, 0, 1), still toward a camera at (5, 0, 5). Transformed as a point, the
    // normal would be (0.1, 0, 1).
    const model = boxModel()
    model.scale.set(0.1, 1, 1)
    model.updateMatrixWorld(true)
    const [world] = worldPins(model, [pin([0, 0, 0], [1, 0, 1])])
    const normal = world!.normal.clone().normalize()
    expect(normal.x).toBeCloseTo(10 / Math.hypot(10, 1), 6)
    expect(normal.z).toBeCloseTo(1 / Math.hypot(10, 1), 6)
  })

  it('does not show a point off the stage or behind the camera', () => {
    const model = boxModel()
    const [off, behind] = projectPins(
      worldPins(model, [pin([40, 0, 0.5], [0, 0, 1]), pin([0, 0, 9], [0, 0, 1])]),
      camera(),
      WIDTH,
      HEIGHT,
    )
    expect(off!.shown).toBe(false)
    expect(behind!.shown).toBe(false)
  })

  it('finds a point hidden behind the model, and none on the face the camera sees', () => {
    const model = boxModel()
    const view = camera()
    // On the front face; on the back face but facing the camera (as the inside of a shell
    // would); and beside the box, in the open.
    const pins = worldPins(model, [
      pin([0, 0, 0.5], [0, 0, 1]),
      pin([0, 0, -0.5], [0, 0, 1]),
      pin([1, 0, -0.5], [0, 0, 1]),
    ])
    expect(projectPins(pins, view, WIDTH, HEIGHT).map((p) => p.shown)).toEqual([true, true, true])
    expect(occluded(pins, model, view, 0.02)).toEqual([false, true, false])
  })
})
