/* eslint-disable react-hooks/immutability -- three.js objects (camera, controls) are mutable by
   design: their fields are set where the camera is framed and turned. */

// A model's camera (look.ts, `SceneCamera`): where it starts (the editor's orbit and target, or
// framed to fit the model), its lens, how far the visitor may turn and zoom it, auto-rotate's
// speed, and the reset, which returns to the editor's start. The viewer's commands (buttons,
// keys, pointer, wheel, touch: ../viewer/) arrive here as turns and zooms.
import { useMemo } from 'react'
import { Spherical, Vector3, type PerspectiveCamera } from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import type { SceneCamera } from '@rules/look'
import type { ViewCommand, ViewOrbit } from '../store'

/** A camera distance that fits a sphere of `radius` in the view, whatever the stage's shape. */
export function fitDistance(camera: PerspectiveCamera, radius: number, aspect: number): number {
  const vertical = (camera.fov * Math.PI) / 180
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect)
  return (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.05
}

/**
 * The automatic framing: slightly from above (the camera at 0.28 of its distance over the middle,
 * in front), at a distance that fits the model.
 */
export const AUTO_ORBIT = { azimuth: 0, polar: Math.atan2(1, 0.28), scale: Math.hypot(1, 0.28) }

/**
 * three's orbit controls without a DOM element: the renderer may run in a worker, which has
 * none. The page turns the visitor's input into commands, and these controls keep the limits,
 * auto-rotation and the saved start for the reset. `speed`: auto-rotate's, in radians a second.
 */
export function useOrbit(
  camera: PerspectiveCamera,
  autoRotate: boolean,
  speed: number,
): OrbitControls {
  const controls = useMemo(() => {
    const orbit = new OrbitControls(camera)
    orbit.enableDamping = false
    orbit.enablePan = false
    return orbit
  }, [camera])
  // No dispose(): it would remove listeners from a DOM element these controls never had.
  controls.autoRotate = autoRotate
  // OrbitControls turns 2π/60 × autoRotateSpeed radians a second.
  controls.autoRotateSpeed = (speed * 60) / (2 * Math.PI)
  return controls
}

/**
 * Frames the model for the editor's camera: its lens, its target (the model's middle, or the
 * editor's point, in the model's coordinates, `center` being where the model's middle was), its
 * start (the editor's orbit, or the automatic framing) and its limits; then saves that start for
 * the reset. `radius`: the model's bounding sphere's; `aspect`: the stage's.
 */
export function frameModel(
  camera: PerspectiveCamera,
  orbit: OrbitControls,
  settings: SceneCamera,
  model: { radius: number; center: Vector3 },
  aspect: number,
) {
  camera.fov = settings.fov
  const fit = fitDistance(camera, model.radius, aspect)
  const start = settings.orbit ?? {
    azimuth: AUTO_ORBIT.azimuth,
    polar: AUTO_ORBIT.polar,
    distance: fit * AUTO_ORBIT.scale,
  }
  const distance = start.distance ?? fit * AUTO_ORBIT.scale
  const [nearest, farthest] = settings.limits.distance
  orbit.minDistance = Math.min(nearest ?? fit * 0.4, distance)
  orbit.maxDistance = Math.max(farthest ?? fit * 3, distance)
  // OrbitControls bounds the azimuth only between two finite angles: a limit on one side alone
  // (`auto 60deg auto`) leaves the other at half a turn from the front.
  const [left, right] = settings.limits.azimuth
  const bounded = Number.isFinite(left) || Number.isFinite(right)
  orbit.minAzimuthAngle = bounded && !Number.isFinite(left) ? -Math.PI : left
  orbit.maxAzimuthAngle = bounded && !Number.isFinite(right) ? Math.PI : right
  orbit.minPolarAngle = settings.limits.polar[0]
  orbit.maxPolarAngle = settings.limits.polar[1]
  if (settings.target) orbit.target.set(...settings.target).sub(model.center)
  else orbit.target.set(0, 0, 0)
  camera.near = Math.min(orbit.minDistance, fit) / 100
  camera.far = Math.max(orbit.maxDistance, fit) * 10
  camera.position
    .copy(orbit.target)
    .add(new Vector3().setFromSphericalCoords(distance, start.polar, start.azimuth))
  camera.lookAt(orbit.target)
  camera.updateProjectionMatrix()
  still(orbit, () => orbit.update())
  orbit.saveState()
}

/**
 * Runs `act` (which calls `orbit.update()`) with auto-rotate off: three's controls add 1/60 s of
 * auto-rotate to every update called without a time, so the framing, the reset and each command
 * would each turn the camera by that much (1° at 60° a second), and the start saved for the reset
 * would not be the editor's. Only the frame loop's timed updates turn it.
 */
function still(orbit: OrbitControls, act: () => void) {
  const auto = orbit.autoRotate
  orbit.autoRotate = false
  try {
    act()
  } finally {
    orbit.autoRotate = auto
  }
}

/**
 * Applies one command to the controls' camera: a turn, a zoom or the reset. A zoom moves the
 * camera between the nearest and farthest distances; zooming in past the nearest narrows the
 * lens, down to the editor's narrowest field of view, and zooming out widens it back to the
 * start before the camera moves away. The reset returns to the editor's start, lens included.
 */
export function applyCommand(
  orbit: OrbitControls,
  camera: PerspectiveCamera,
  settings: SceneCamera,
  command: Exclude<ViewCommand, { type: 'pick' | 'view' | 'variant' | 'read-view' }>,
) {
  if (command.type === 'reset') {
    still(orbit, () => orbit.reset())
    lens(camera, settings.fov)
    return
  }
  const offset = new Vector3().copy(camera.position).sub(orbit.target)
  const spherical = new Spherical().setFromVector3(offset)
  if (command.type === 'rotate') {
    spherical.theta += command.azimuth
    spherical.phi = Math.min(
      orbit.maxPolarAngle,
      Math.max(orbit.minPolarAngle, spherical.phi + command.polar),
    )
  } else {
    const { factor } = command
    const [narrowest] = settings.fovRange
    if (factor < 1 && spherical.radius * factor < orbit.minDistance && camera.fov > narrowest) {
      spherical.radius = orbit.minDistance
      lens(camera, Math.max(narrowest, camera.fov * factor))
    } else if (factor > 1 && camera.fov < settings.fov) {
      lens(camera, Math.min(settings.fov, camera.fov * factor))
    } else {
      spherical.radius = Math.min(
        orbit.maxDistance,
        Math.max(orbit.minDistance, spherical.radius * factor),
      )
    }
  }
  offset.setFromSpherical(spherical)
  camera.position.copy(orbit.target).add(offset)
  still(orbit, () => orbit.update())
}

/** Sets the camera's field of view. */
function lens(camera: PerspectiveCamera, fov: number) {
  if (camera.fov === fov) return
  camera.fov = fov
  camera.updateProjectionMatrix()
}

/** The camera's orbit around the controls' target now. */
export function orbitOf(orbit: OrbitControls, camera: PerspectiveCamera): Spherical {
  return new Spherical().setFromVector3(new Vector3().copy(camera.position).sub(orbit.target))
}

/** Places the camera on `spherical` around the controls' target. */
export function placeCamera(orbit: OrbitControls, camera: PerspectiveCamera, spherical: Spherical) {
  camera.position.copy(orbit.target).add(new Vector3().setFromSpherical(spherical))
  still(orbit, () => orbit.update())
}

/** A hotspot's view as the controls' limits allow it; its distance, or the camera's own. */
export function viewTarget(
  orbit: OrbitControls,
  camera: PerspectiveCamera,
  view: ViewOrbit,
): Spherical {
  const radius = Math.min(
    orbit.maxDistance,
    Math.max(orbit.minDistance, view.distance ?? orbitOf(orbit, camera).radius),
  )
  const polar = Math.min(orbit.maxPolarAngle, Math.max(orbit.minPolarAngle, view.polar))
  const azimuth = Math.min(orbit.maxAzimuthAngle, Math.max(orbit.minAzimuthAngle, view.azimuth))
  return new Spherical(radius, polar, azimuth)
}
