/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

import { useEffect, useMemo, useRef, useState } from 'react'
import { useFrame, useLoader, useThree } from '@react-three/fiber'
import { Box3, Sphere, Spherical, Vector3, type Group, type PerspectiveCamera } from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js'
import { configureGltfLoader } from '../gltf-loader'
import { MeasuredGLTFLoader, modelInfo } from '../model-info'
import { modelUrlFor } from '../../model-variant'
import { useModelAnimation } from './model-animation'
import {
  SceneCamera,
  SceneEnvironment,
  useAnimationFrames,
  useHost,
  useMayAnimate,
} from '../host-context'
import type { SceneSlot } from '../../protocol'
import type { SceneSpec, ViewCommand } from '../../store'
import { pickPoint } from '../pick'

type Spec = Extract<SceneSpec, { kind: 'model' | 'viewer' }>

/** A camera distance that fits a sphere of `radius` in the view, whatever the stage's shape. */
function fitDistance(camera: PerspectiveCamera, radius: number, aspect: number): number {
  const vertical = (camera.fov * Math.PI) / 180
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect)
  return (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.05
}

/**
 * three's orbit controls without a DOM element: the renderer may run in a worker, which has
 * none. The page turns the visitor's pointer, wheel, touch and keys into commands (CanvasHost),
 * and these controls keep their limits, auto-rotation and saved state for the reset.
 */
function useOrbit(camera: PerspectiveCamera, autoRotate: boolean): OrbitControls {
  const controls = useMemo(() => {
    const orbit = new OrbitControls(camera)
    orbit.enableDamping = false
    orbit.enablePan = false
    orbit.autoRotateSpeed = 1.2
    return orbit
  }, [camera])
  // No dispose(): it would remove listeners from a DOM element these controls never had.
  controls.autoRotate = autoRotate
  return controls
}

/** Applies one command to the controls' camera: a turn, a zoom or the reset. */
function applyCommand(
  orbit: OrbitControls,
  camera: PerspectiveCamera,
  command: Exclude<ViewCommand, { type: 'pick' }>,
) {
  if (command.type === 'reset') {
    orbit.reset()
    return
  }
  const offset = new Vector3().copy(camera.position).sub(orbit.target)
  const spherical = new Spherical().setFromVector3(offset)
  if (command.type === 'rotate') {
    spherical.theta += command.azimuth
    spherical.phi = Math.min(Math.PI - 0.1, Math.max(0.1, spherical.phi + command.polar))
  } else {
    spherical.radius = Math.min(
      orbit.maxDistance,
      Math.max(orbit.minDistance, spherical.radius * command.factor),
    )
  }
  offset.setFromSpherical(spherical)
  camera.position.copy(orbit.target).add(offset)
  orbit.update()
}

function Model({ slot, spec }: { slot: SceneSlot; spec: Spec }) {
  const { report, store, tier, model: fetching } = useHost()
  const gl = useThree((s) => s.gl)
  // The variant made for the tier the renderer measured, asked for before anything is fetched
  // (a model of another origin as it is): its bytes are the ones the progress counts.
  const url = modelUrlFor(spec.url, fetching.choice, tier, fetching.base)
  // Decoders from the site's own origin, fetched only for a model that needs them.
  const gltf = useLoader(
    MeasuredGLTFLoader,
    url,
    (loader) => configureGltfLoader(loader, gl),
    (event) =>
      report({
        type: 'progress',
        id: slot.id,
        progress: event.total ? Math.min(1, event.loaded / event.total) : null,
      }),
  )
  // `?debug3d`: what was fetched and what it holds, reported with the frame's figures.
  const loaded = fetching.loaded
  useEffect(() => {
    if (!loaded) return
    loaded[slot.id] = modelInfo(gltf, url)
    return () => {
      delete loaded[slot.id]
    }
  }, [loaded, slot.id, gltf, url])
  // A copy of its own for each slot (the loader caches one model per URL); skinned meshes keep
  // their bones.
  const model = useMemo(() => cloneSkinned(gltf.scene), [gltf])
  const { center, radius } = useMemo(() => {
    const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere())
    return { center: sphere.center, radius: sphere.radius || 1 }
  }, [model])

  const camera = useThree((s) => s.camera) as PerspectiveCamera
  const invalidate = useThree((s) => s.invalidate)
  const turntable = useRef<Group>(null)
  const [touched, setTouched] = useState(false)
  const mayAnimate = useMayAnimate(slot)
  const turning = mayAnimate && spec.autoRotate && !touched
  const orbit = useOrbit(camera, spec.kind === 'viewer' && turning)
  useAnimationFrames(turning)
  useModelAnimation(model, gltf.animations, {
    clip: spec.clip,
    play: spec.animate,
    active: mayAnimate,
    url: spec.url,
  })

  // Frame the model: centre it, and back the camera off until its bounding sphere fits.
  useEffect(() => {
    const rect = (store.get(slot.id) ?? slot).rect
    const distance = fitDistance(camera, radius, rect.width / Math.max(1, rect.height))
    camera.position.set(0, distance * 0.28, distance)
    camera.near = distance / 100
    camera.far = distance * 10
    camera.lookAt(0, 0, 0)
    camera.updateProjectionMatrix()
    orbit.target.set(0, 0, 0)
    orbit.minDistance = distance * 0.4
    orbit.maxDistance = distance * 3
    orbit.update()
    orbit.saveState()
    invalidate()
  }, [camera, radius, slot, store, orbit, invalidate])

  // The viewer's keyboard, pointer and reset commands, sent by the page.
  useEffect(() => {
    if (spec.kind !== 'viewer') return
    store.setCommand(slot.id, (command) => {
      if (command.type === 'pick') {
        report({
          type: 'picked',
          id: slot.id,
          point: pickPoint(model, camera, command.x, command.y),
        })
        return
      }
      setTouched(true)
      applyCommand(orbit, camera, command)
      invalidate()
    })
    return () => store.setCommand(slot.id, null)
  }, [spec.kind, slot.id, store, orbit, camera, invalidate, report, model])

  useFrame((_, delta) => {
    if (!turning) return
    if (spec.kind === 'viewer') orbit.update(Math.min(delta, 0.1))
    else if (turntable.current) turntable.current.rotation.y += Math.min(delta, 0.1) * 0.35
  })

  return (
    <group ref={turntable}>
      <primitive object={model} position={center.clone().negate()} />
    </group>
  )
}

/** A GLB from the media library, framed automatically: the hero's model scene and the viewer. */
export function ModelScene({ slot, spec }: { slot: SceneSlot; spec: Spec }) {
  return (
    <>
      <SceneCamera position={[0, 1, 6]} />
      <SceneEnvironment />
      <ambientLight intensity={0.4} />
      <directionalLight position={[4, 6, 5]} intensity={2.2} />
      <directionalLight position={[-5, 2, -4]} intensity={0.6} />
      <Model slot={slot} spec={spec} />
    </>
  )
}
