'use client'
/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

import { useEffect, useMemo, useRef, useState } from 'react'
import { useFrame, useLoader, useThree } from '@react-three/fiber'
import { Box3, Sphere, Spherical, Vector3, type Group, type PerspectiveCamera } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import type { OrbitControls as OrbitControlsImpl } from 'three-stdlib'
import {
  SceneCamera,
  SceneEnvironment,
  StageOrbitControls,
  useAnimationFrames,
  useMayAnimate,
} from '../host-context'
import { threeStore, type SceneSpec, type SlotEntry, type ViewCommand } from '../store'

type Spec = Extract<SceneSpec, { kind: 'model' | 'viewer' }>

/** A camera distance that fits a sphere of `radius` in the view, whatever the stage's shape. */
function fitDistance(camera: PerspectiveCamera, radius: number, aspect: number): number {
  const vertical = (camera.fov * Math.PI) / 180
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect)
  return (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.05
}

function Model({ slot, spec }: { slot: SlotEntry; spec: Spec }) {
  // The meshopt decoder ships inside three (WASM inlined): nothing is fetched from a CDN.
  const gltf = useLoader(
    GLTFLoader,
    spec.url,
    (loader) => {
      loader.setMeshoptDecoder(MeshoptDecoder)
    },
    (event) =>
      threeStore.update(slot.id, {
        progress: event.total ? Math.min(1, event.loaded / event.total) : null,
      }),
  )
  const model = useMemo(() => gltf.scene.clone(true), [gltf])
  const { center, radius } = useMemo(() => {
    const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere())
    return { center: sphere.center, radius: sphere.radius || 1 }
  }, [model])

  const camera = useThree((s) => s.camera) as PerspectiveCamera
  const invalidate = useThree((s) => s.invalidate)
  const turntable = useRef<Group>(null)
  const controls = useRef<OrbitControlsImpl | null>(null)
  const [touched, setTouched] = useState(false)
  const mayAnimate = useMayAnimate(slot)
  const turning = mayAnimate && spec.autoRotate && !touched
  useAnimationFrames(turning)

  // Frame the model: centre it, and back the camera off until its bounding sphere fits.
  useEffect(() => {
    const rect = slot.element.getBoundingClientRect()
    const distance = fitDistance(camera, radius, rect.width / Math.max(1, rect.height))
    camera.position.set(0, distance * 0.28, distance)
    camera.near = distance / 100
    camera.far = distance * 10
    camera.lookAt(0, 0, 0)
    camera.updateProjectionMatrix()
    const orbit = controls.current
    if (orbit) {
      orbit.target.set(0, 0, 0)
      orbit.minDistance = distance * 0.4
      orbit.maxDistance = distance * 3
      orbit.update()
      orbit.saveState()
    }
    invalidate()
  }, [camera, radius, slot.element, invalidate])

  // The viewer's keyboard and reset button.
  useEffect(() => {
    if (spec.kind !== 'viewer') return
    const offset = new Vector3()
    const spherical = new Spherical()
    threeStore.update(slot.id, {
      command: (command: ViewCommand) => {
        const orbit = controls.current
        if (!orbit) return
        setTouched(true)
        if (command.type === 'reset') {
          orbit.reset()
        } else {
          offset.copy(camera.position).sub(orbit.target)
          spherical.setFromVector3(offset)
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
        invalidate()
      },
    })
    return () => threeStore.update(slot.id, { command: undefined })
  }, [spec.kind, slot.id, camera, invalidate])

  useFrame((_, delta) => {
    if (spec.kind === 'model' && turning && turntable.current)
      turntable.current.rotation.y += Math.min(delta, 0.1) * 0.35
  })

  return (
    <>
      <group ref={turntable}>
        <primitive object={model} position={center.clone().negate()} />
      </group>
      {spec.kind === 'viewer' && (
        <StageOrbitControls
          element={slot.element}
          autoRotate={turning}
          controlsRef={controls}
          onStart={() => setTouched(true)}
        />
      )}
    </>
  )
}

/** A GLB from the media library, framed automatically: the hero's model scene and the viewer. */
export function ModelScene({ slot, spec }: { slot: SlotEntry; spec: Spec }) {
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
