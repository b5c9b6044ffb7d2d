/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

// What the renderer shares with its scenes. Kept apart from renderer.tsx so scenes do not import
// the renderer (no import cycle). Everything here runs where the renderer runs: a Web Worker or,
// on the fallback path, the main thread; so nothing here may touch the DOM.
import {
  Component,
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  type ReactNode,
} from 'react'
import { useFrame, useThree } from '@react-three/fiber'
import { PerspectiveCamera } from '@react-three/drei/core/PerspectiveCamera'
import type { Texture } from 'three'
import type { FromRenderer, ModelInfo, SceneSlot } from '../protocol'
import type { ModelChoice } from '../model-variant'
import type { ViewOrbit } from '../store'
import { useSceneStore, type SceneStore } from './scene-store'

/** What every scene needs from the renderer. */
type HostState = {
  /** The tab is hidden: nothing animates. */
  hidden: boolean
  /** The self-hosted environment map (generated from three's RoomEnvironment). */
  environment: Texture | null
  /** `low` on a software renderer: plain materials, pixel ratio 1. */
  tier: 'high' | 'low'
  /** `?debug3d=motion`: let the low tier play motion (tests and benchmarks). */
  forceMotion: boolean
  /** The slots, as the page last described them. */
  store: SceneStore
  /** Tells the page something (progress, errors). */
  report: (message: FromRenderer) => void
  /**
   * Which file a model slot fetches (`choice`: the tier's variant unless `?debug3d` names
   * another), model URLs of `base`'s origin being the site's; and, with `?debug3d`, where each
   * slot notes what it loaded (`loaded`, reported with the frame's figures).
   */
  model: { choice: ModelChoice; base: string; loaded: Record<string, ModelInfo> | null }
  /** With `?debug3d`, where each viewer notes its camera's orbit (reported with the figures). */
  orbits: Record<string, ViewOrbit> | null
  /** The slots whose scenes move by themselves (their motion, auto-rotate or a clip). */
  moving: Set<string>
  /** With `?debug3d`, where each model slot notes the art direction it drew (`respec`). */
  revisions: Record<string, number> | null
}
export const HostContext = createContext<HostState | null>(null)

/** The host's state; only scenes inside the renderer may call it. */
export function useHost(): HostState {
  const host = useContext(HostContext)
  if (!host) throw new Error('useHost must be used inside the 3D renderer, which provides it.')
  return host
}

/**
 * True when this slot's scene may move by itself: visible, tab shown, not paused by the visitor
 * (who starts paused with reduced motion: viewer/motion.ts), and a GPU to draw it. On a software
 * renderer a moving scene would keep the CPU busy (and drain the battery), so it shows a still
 * frame that still answers the visitor's input, unless `?debug3d=motion` asks for motion (tests
 * and benchmarks play it under SwiftShader).
 */
export function useMayAnimate(slot: SceneSlot): boolean {
  const { hidden, tier, forceMotion, store } = useHost()
  useSceneStore(store)
  const current = store.get(slot.id) ?? slot
  return mayAnimate(current, { hidden, tier, forceMotion })
}

/** Whether this renderer plays motion at all: a GPU, or `?debug3d=motion`. */
const playsMotion = (host: { tier: 'high' | 'low'; forceMotion: boolean }) =>
  host.tier === 'high' || host.forceMotion

/** The rule of `useMayAnimate`, for code outside a scene (the renderer's frame-rate sampling). */
export function mayAnimate(
  slot: SceneSlot,
  host: { hidden: boolean; tier: 'high' | 'low'; forceMotion: boolean },
): boolean {
  return slot.visible && !host.hidden && !slot.paused && playsMotion(host)
}

/**
 * True when a move the visitor starts (a turn to a hotspot's view) may be animated: as
 * `useMayAnimate`, but reduced motion, not the pause, decides (a visitor who paused the scenes
 * still sees their own turn happen).
 */
export function useMayTransition(slot: SceneSlot): boolean {
  const { hidden, tier, forceMotion, store } = useHost()
  useSceneStore(store)
  const current = store.get(slot.id) ?? slot
  return current.visible && !hidden && !current.reducedMotion && playsMotion({ tier, forceMotion })
}

/**
 * Tells the page whether this slot's scene moves by itself here: `moves` (its motion, turntable,
 * auto-rotate or animation), on a renderer that plays motion. The page offers a pause button for
 * it then; where the renderer holds every scene still anyway, none.
 */
export function useReportMoves(slot: SceneSlot, moves: boolean) {
  const { tier, forceMotion, report, moving } = useHost()
  const shown = moves && playsMotion({ tier, forceMotion })
  useEffect(() => {
    report({ type: 'moves', id: slot.id, moves: shown })
    // And for the renderer's frame-rate sampling: only frames of motion say how fast the GPU is.
    if (moves) moving.add(slot.id)
    else moving.delete(slot.id)
    return () => {
      moving.delete(slot.id)
    }
  }, [report, slot.id, shown, moves, moving])
}

/**
 * Keeps a demand frameloop running while `active`: one frame asks for the next. On the low tier
 * (software rendering) frames are spaced out, so the renderer's backlog never floods the GPU
 * process the page shares.
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

/** The errors a `Boundary` caught (see `reportCaughtOnce` in renderer.tsx). */
export const caughtErrors = new WeakSet<object>()

/** Catches a failure inside one scene (or of the whole renderer) and reports it. */
export class Boundary extends Component<{
  onError: (error: unknown) => void
  children: ReactNode
}> {
  state = { failed: false }
  static getDerivedStateFromError(error: unknown) {
    if (error !== null && typeof error === 'object') caughtErrors.add(error)
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
export function SceneCamera({
  position,
  fov = 35,
}: {
  position: [number, number, number]
  /** The vertical field of view, in degrees. */
  fov?: number
}) {
  return <PerspectiveCamera makeDefault position={position} fov={fov} near={0.05} far={100} />
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
