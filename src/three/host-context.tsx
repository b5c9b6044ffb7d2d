'use client'
/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

// What the canvas host shares with its scenes. Kept apart from CanvasHost.tsx so scenes do not
// import the host (no import cycle).
import {
  Component,
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react'
import { useFrame, useThree } from '@react-three/fiber'
import { PerspectiveCamera } from '@react-three/drei/core/PerspectiveCamera'
import { OrbitControls } from '@react-three/drei/core/OrbitControls'
import type { OrbitControls as OrbitControlsImpl } from 'three-stdlib'
import type { Texture } from 'three'
import { threeStore, type SlotEntry } from './store'

/** What every scene needs from the host. */
type HostState = {
  /** The tab is hidden: nothing animates. */
  hidden: boolean
  /** The self-hosted environment map (generated in the browser from three's RoomEnvironment). */
  environment: Texture | null
  /** `low` on a software renderer: plain materials, pixel ratio 1. */
  tier: 'high' | 'low'
}
export const HostContext = createContext<HostState | null>(null)

/** The host's state; only scenes inside the canvas host may call it. */
export function useHost(): HostState {
  const host = useContext(HostContext)
  if (!host)
    throw new Error('useHost must be used inside <CanvasHost>, which provides the 3D host.')
  return host
}

/**
 * True when this slot's scene may move by itself: visible, tab shown, motion not reduced, and a
 * GPU to draw it. On a software renderer a moving scene would keep the main thread busy (and the
 * battery), so it shows a still frame that still answers the visitor's input. `?debug3d=motion`
 * lifts that last rule, so tests and benchmarks can play motion under SwiftShader.
 */
export function useMayAnimate(slot: SlotEntry): boolean {
  const { hidden, tier } = useHost()
  useSyncExternalStore(threeStore.subscribe, threeStore.version)
  return slot.visible && !hidden && !slot.reducedMotion && (tier === 'high' || forceMotion())
}

/** `?debug3d=motion`: let the low tier play motion (tests and benchmarks). */
export function forceMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    new URLSearchParams(window.location.search).get('debug3d') === 'motion'
  )
}

/**
 * Keeps a demand frameloop running while `active`: one frame asks for the next. On the low tier
 * (software rendering) frames are spaced out, so the renderer's backlog never blocks the page.
 */
export function useAnimationFrames(active: boolean) {
  const invalidate = useThree((s) => s.invalidate)
  const { tier } = useHost()
  useEffect(() => {
    if (active) invalidate()
  }, [active, invalidate])
  useFrame(() => {
    if (!active) return
    if (tier === 'low') setTimeout(() => invalidate(), LOW_TIER_FRAME_MS)
    else invalidate()
  })
}

/** The low tier's frame spacing: about 20 frames per second at most. */
const LOW_TIER_FRAME_MS = 50

/** Catches a failure inside one scene (or of the whole canvas) and reports it. */
export class Boundary extends Component<{
  onError: (error: unknown) => void
  children: ReactNode
}> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(error: unknown) {
    this.props.onError(error)
  }
  render() {
    return this.state.failed ? null : this.props.children
  }
}

/** The camera every scene starts from. */
export function SceneCamera({ position }: { position: [number, number, number] }) {
  return <PerspectiveCamera makeDefault position={position} fov={35} near={0.05} far={100} />
}

/** Orbit controls bound to the slot's stage element (pointer and touch). */
export function StageOrbitControls({
  element,
  autoRotate,
  controlsRef,
  onStart,
}: {
  element: HTMLElement
  autoRotate: boolean
  controlsRef: RefObject<OrbitControlsImpl | null>
  onStart: () => void
}) {
  return (
    <OrbitControls
      ref={controlsRef}
      domElement={element}
      enableDamping={false}
      enablePan={false}
      autoRotate={autoRotate}
      autoRotateSpeed={1.2}
      onStart={onStart}
    />
  )
}

/** Applies the host's environment map to the view's own scene. */
export function SceneEnvironment() {
  const { environment } = useHost()
  const scene = useThree((s) => s.scene)
  useLayoutEffect(() => {
    scene.environment = environment
    return () => {
      scene.environment = null
    }
  }, [scene, environment])
  return null
}
