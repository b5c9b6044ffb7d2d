import { describe, expect, it } from 'vitest'
import { PerspectiveCamera, Vector3 } from 'three'
import { applyCommand, frameModel, orbitOf } from '@/three/render/camera'
import { DEFAULT_CAMERA, type SceneCamera } from '@rules/look'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'

// The viewer's camera as the showcase's editor set it: a start at -30° round and 68° down,
// turning by itself at 20° a second.
const degrees = (d: number) => (d * Math.PI) / 180
const settings: SceneCamera = {
  ...DEFAULT_CAMERA,
  orbit: { azimuth: degrees(-30), polar: degrees(68), distance: null },
  rotationSpeed: degrees(20),
}

/** Controls turning by themselves, as `useOrbit` makes them for a viewer that auto-rotates. */
function autoRotating(camera: PerspectiveCamera) {
  const orbit = new OrbitControls(camera)
  orbit.autoRotate = true
  orbit.autoRotateSpeed = (settings.rotationSpeed * 60) / (2 * Math.PI)
  return orbit
}

describe('the viewer camera', () => {
  it("starts, resets and turns by exactly the editor's angles while it auto-rotates", () => {
    const camera = new PerspectiveCamera()
    const orbit = autoRotating(camera)
    frameModel(camera, orbit, settings, { radius: 1, center: new Vector3() }, 1)
    // Before: three's controls added 1/60 s of auto-rotate to each untimed update (-30.33°).
    expect(orbitOf(orbit, camera).theta).toBeCloseTo(degrees(-30), 10)
    expect(orbitOf(orbit, camera).phi).toBeCloseTo(degrees(68), 10)

    applyCommand(orbit, camera, settings, { type: 'rotate', azimuth: degrees(15), polar: 0 })
    expect(orbitOf(orbit, camera).theta).toBeCloseTo(degrees(-15), 10)

    // A frame of auto-rotate, timed: 0.1 s at 20° a second.
    orbit.update(0.1)
    expect(orbitOf(orbit, camera).theta).toBeCloseTo(degrees(-17), 10)

    applyCommand(orbit, camera, settings, { type: 'reset' })
    expect(orbitOf(orbit, camera).theta).toBeCloseTo(degrees(-30), 10)
    // Still auto-rotating afterwards.
    expect(orbit.autoRotate).toBe(true)
  })
})
