// What the scenes share (scenes/*.tsx): their camera, and when they may move. Apart from
// host-context.tsx, which the renderer itself uses: these are in the scenes' chunks only.
import { useEffect, useLayoutEffect, useRef } from 'react'
import { useFrame, useThree } from '@react-three/fiber'
import type { PerspectiveCamera } from 'three'
import type { SceneSlot } from '../protocol'
import { mayAnimate, playsMotion, useHost } from './host-context'
import { useSceneStore } from './scene-store'

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

/**
 * The camera every scene starts from, made the view's default camera while it is mounted. As
 * drei's PerspectiveCamera with `makeDefault`, less its render-to-texture children, which pulled
 * a render target and its depth texture into the renderer's first chunk for nothing.
 */
export function SceneCamera({
  position,
  fov = 35,
}: {
  position: [number, number, number]
  /** The vertical field of view, in degrees. */
  fov?: number
}) {
  const set = useThree((s) => s.set)
  const get = useThree((s) => s.get)
  const size = useThree((s) => s.size)
  const ref = useRef<PerspectiveCamera>(null)
  useLayoutEffect(() => {
    const camera = ref.current!
    camera.aspect = size.width / size.height
  }, [size])
  // After any change of its lens (a new `fov`) or its aspect.
  useLayoutEffect(() => ref.current!.updateProjectionMatrix())
  useLayoutEffect(() => {
    const before = get().camera
    set({ camera: ref.current! })
    return () => set({ camera: before })
  }, [get, set])
  return <perspectiveCamera ref={ref} position={position} fov={fov} near={0.05} far={100} />
}
