/* eslint-disable react-hooks/immutability -- three.js objects (scene) are mutable by design. */

import { useLayoutEffect, useMemo, useRef } from 'react'
import { extend, useFrame, useThree } from '@react-three/fiber'
import { MeshDistortMaterial } from '@react-three/drei/core/MeshDistortMaterial'
import {
  DirectionalLight,
  Group,
  HemisphereLight,
  IcosahedronGeometry,
  Mesh,
  MeshPhysicalMaterial,
  MeshStandardMaterial,
  type BufferGeometry,
  TorusGeometry,
  TorusKnotGeometry,
  type MeshPhysicalMaterialParameters,
} from 'three'
import { useHost } from '../host-context'
import { SceneCamera, useAnimationFrames, useMayAnimate, useReportMoves } from '../scene-hooks'
import type { SceneSlot } from '../../protocol'
import type { SceneSpec } from '../../store'
import { sharedRoomEnvironment } from '../room-environment'

type Spec = Extract<SceneSpec, { kind: 'procedural' }>

// The elements these scenes draw (see renderer.tsx, `extend`).
extend({
  DirectionalLight,
  Group,
  HemisphereLight,
  Mesh,
  MeshPhysicalMaterial,
  MeshStandardMaterial,
})

/** The look of each material choice; glass avoids transmission (an extra pass per frame). */
function materialProps(spec: Spec, color: string, low: boolean): MeshPhysicalMaterialParameters {
  if (low) {
    // The low tier's physical material keeps only what costs nothing per pixel.
    const metal = spec.material === 'metal'
    return { color, roughness: metal ? 0.3 : 0.45, metalness: metal ? 0.6 : 0 }
  }
  switch (spec.material) {
    case 'glass':
      return {
        color,
        roughness: 0.06,
        metalness: 0.1,
        clearcoat: 1,
        clearcoatRoughness: 0.04,
        transparent: true,
        opacity: 0.85,
        iridescence: 0.8,
        iridescenceIOR: 1.3,
        envMapIntensity: 1.4,
      }
    case 'metal':
      return { color, roughness: 0.22, metalness: 1, envMapIntensity: 1.3 }
    case 'clay':
      return { color, roughness: 0.9, metalness: 0, sheen: 0.6, sheenColor: spec.colorSecondary }
  }
}

/** The geometry of each shape (the rings' three meshes share one torus). */
function shapeGeometry(shape: Spec['shape']): BufferGeometry {
  switch (shape) {
    case 'torus-knot':
      return new TorusKnotGeometry(0.9, 0.3, 200, 28)
    case 'icosahedron':
      return new IcosahedronGeometry(1.2, 0)
    case 'blob':
      return new IcosahedronGeometry(1.1, 20)
    case 'rings':
      return new TorusGeometry(1.15, 0.07, 24, 128)
  }
}

function Shape({ spec, still }: { spec: Spec; still: boolean }) {
  const low = useHost().tier === 'low'
  const props = materialProps(spec, spec.colorPrimary, low)
  // The low tier draws with the standard material's cheaper shader.
  const material = (p: MeshPhysicalMaterialParameters, flatShading = false) =>
    low ? (
      <meshStandardMaterial {...p} flatShading={flatShading} />
    ) : (
      <meshPhysicalMaterial {...p} flatShading={flatShading} />
    )
  // Only the shape shown is built: building geometry is part of the scene's setup task.
  const geometry = useMemo(() => shapeGeometry(spec.shape), [spec.shape])
  switch (spec.shape) {
    case 'torus-knot':
      return <mesh geometry={geometry}>{material(props)}</mesh>
    case 'icosahedron':
      return <mesh geometry={geometry}>{material(props, true)}</mesh>
    case 'blob':
      return (
        <mesh geometry={geometry}>
          <MeshDistortMaterial {...props} distort={0.35} speed={still ? 0 : spec.speed * 1.5} />
        </mesh>
      )
    case 'rings':
      return (
        <group>
          {[0, 1, 2].map((i) => (
            <mesh
              key={i}
              geometry={geometry}
              rotation={[Math.PI / 2 + i * 0.7, i * 0.9, 0]}
              scale={1 - i * 0.18}
            >
              {material(materialProps(spec, i % 2 ? spec.colorSecondary : spec.colorPrimary, low))}
            </mesh>
          ))}
        </group>
      )
  }
}

/**
 * Lights the view's own scene with three's RoomEnvironment, made once per renderer (on a GPU; the
 * low tier draws without an environment map).
 */
function SceneEnvironment() {
  const { tier } = useHost()
  const gl = useThree((s) => s.gl)
  const scene = useThree((s) => s.scene)
  useLayoutEffect(() => {
    scene.environment = tier === 'high' ? sharedRoomEnvironment(gl) : null
    return () => {
      scene.environment = null
    }
  }, [scene, gl, tier])
  return null
}

/** The hero's generated scene: shape, colours, material and motion from the slice's fields. */
export function ProceduralScene({ slot, spec }: { slot: SceneSlot; spec: Spec }) {
  const group = useRef<Group>(null)
  const time = useRef(0)
  const moves = spec.motion !== 'still'
  const animate = useMayAnimate(slot) && moves
  useReportMoves(slot, moves)
  useAnimationFrames(animate)

  useFrame((_, delta) => {
    const g = group.current
    if (!g || !animate) return
    // Clamp: after a pause (offscreen, hidden tab) the first delta is long.
    const step = Math.min(delta, 0.1) * spec.speed
    time.current += step
    if (spec.motion === 'spin') {
      g.rotation.y += step * 0.6
      g.rotation.x += step * 0.15
    } else {
      g.position.y = Math.sin(time.current * 1.2) * 0.12
      g.rotation.y = Math.sin(time.current * 0.5) * 0.7
      g.rotation.x = Math.cos(time.current * 0.4) * 0.25
    }
  })

  return (
    <>
      <SceneCamera position={[0, 0, 6]} />
      <SceneEnvironment />
      <hemisphereLight args={['#ffffff', '#444455', 0.8]} />
      <directionalLight position={[3, 4, 5]} intensity={2} color={spec.colorSecondary} />
      <directionalLight position={[-4, -2, -3]} intensity={1} color={spec.colorPrimary} />
      <group ref={group} rotation={[0.3, 0.5, 0]}>
        <Shape spec={spec} still={!animate} />
      </group>
    </>
  )
}
