'use client'
/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

import {
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { Canvas, useFrame, useThree, type RootState } from '@react-three/fiber'
import { View } from '@react-three/drei/web/View'
import { ProceduralScene } from './scenes/ProceduralScene'
import { ModelScene } from './scenes/ModelScene'
import { roomEnvironment } from './environment'
import { Boundary, forceMotion, HostContext } from './host-context'
import { threeStore, type SlotEntry } from './store'
import type { WebGLRenderer } from 'three'

/**
 * Compiles the view's shaders off the main thread (KHR_parallel_shader_compile, through
 * `compileAsync`), then lets the view draw and marks the slot's scene as ready to be shown. A
 * first draw before that would stall the main thread until every program had linked.
 */
function Ready({
  id,
  ready,
  onCompiled,
}: {
  id: string
  ready: Set<string>
  onCompiled: () => void
}) {
  const gl = useThree((s) => s.gl)
  const scene = useThree((s) => s.scene)
  const camera = useThree((s) => s.camera)
  const invalidate = useThree((s) => s.invalidate)
  useEffect(() => {
    let live = true
    gl.compileAsync(scene, camera).then(() => {
      if (!live) return
      onCompiled()
      ready.add(id)
      invalidate()
    })
    return () => {
      live = false
      ready.delete(id)
    }
  }, [id, ready, invalidate, gl, scene, camera, onCompiled])
  return null
}

function SlotView({ slot, ready }: { slot: SlotEntry; ready: Set<string> }) {
  const track = useMemo(() => ({ current: slot.element }), [slot.element])
  const [compiled, setCompiled] = useState(false)
  const onCompiled = useCallback(() => setCompiled(true), [])
  const { spec } = slot
  return (
    <View track={track} visible={compiled}>
      <Boundary
        onError={(error) => {
          console.error('3D scene failed:', error)
          threeStore.update(slot.id, { status: 'error' })
        }}
      >
        <Suspense fallback={null}>
          {spec.kind === 'procedural' ? (
            <ProceduralScene slot={slot} spec={spec} />
          ) : (
            <ModelScene slot={slot} spec={spec} />
          )}
          <Ready id={slot.id} ready={ready} onCompiled={onCompiled} />
        </Suspense>
      </Boundary>
    </View>
  )
}

type DebugHook = {
  renderer: WebGLRenderer
  frames: number
  calls: number
  triangles: number
  dpr: number
  tier: string
}

/**
 * Frame bookkeeping: resets the renderer's counters before the views draw, then, after they
 * have drawn, turns each ready slot whose stage is on screen to `live` (the poster fades).
 */
function FrameBookkeeping({
  ready,
  lost,
  animating,
  tier,
  onFrameRate,
}: {
  ready: Set<string>
  lost: boolean
  tier: string
  animating: boolean
  onFrameRate: (fps: number) => void
}) {
  const gl = useThree((s) => s.gl)
  const sample = useRef({ frames: 0, since: 0 })
  const invalidate = useThree((s) => s.invalidate)
  const debug = useRef<DebugHook | null>(null)

  useEffect(() => {
    gl.info.autoReset = false
    if (new URLSearchParams(window.location.search).has('debug3d')) {
      debug.current = {
        renderer: gl,
        frames: 0,
        calls: 0,
        triangles: 0,
        dpr: gl.getPixelRatio(),
        tier: 'high',
      }
      ;(window as unknown as { __facet3d: DebugHook }).__facet3d = debug.current
    }
    // Views follow their elements; a fixed canvas must redraw when the page scrolls.
    const onScroll = () => invalidate()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [gl, invalidate])

  useFrame(() => gl.info.reset(), -1)
  useFrame(() => {
    // Frame rate while something moves (a demand loop idles otherwise), for the adaptive DPR.
    const now = performance.now()
    const rate = sample.current
    if (!animating) rate.since = 0
    else if (rate.since === 0) Object.assign(rate, { since: now, frames: 0 })
    else if (++rate.frames >= 20 || now - rate.since > 2000) {
      onFrameRate((rate.frames * 1000) / (now - rate.since))
      Object.assign(rate, { since: now, frames: 0 })
    }
    const hook = debug.current
    if (hook) {
      hook.frames++
      hook.calls = gl.info.render.calls
      hook.triangles = gl.info.render.triangles
      hook.dpr = gl.getPixelRatio()
      hook.tier = tier
    }
    if (lost) return
    const drawn: string[] = []
    for (const id of ready) {
      const slot = threeStore.get(id)
      if (!slot || slot.status === 'live' || slot.status === 'error') continue
      const rect = slot.element.getBoundingClientRect()
      if (rect.bottom > 0 && rect.top < window.innerHeight && rect.width > 0) drawn.push(id)
    }
    // The views drew in this frame; show them once it has reached the screen.
    if (drawn.length)
      requestAnimationFrame(() => {
        for (const id of drawn) threeStore.update(id, { status: 'live' })
      })
  }, 2)
  return null
}

/**
 * The one canvas of the page: a fixed, transparent, click-through layer whose views are drawn
 * over the slots' stages (drei's View: one WebGL context, scissored per slot). It renders on
 * demand only: scenes ask for frames while they move and are visible.
 */
export default function CanvasHost() {
  useSyncExternalStore(threeStore.subscribe, threeStore.version, threeStore.version)
  const slots = threeStore.slots()
  const [failed, setFailed] = useState(false)
  const [hidden, setHidden] = useState(false)
  const [lost, setLost] = useState(false)
  const [generation, setGeneration] = useState(0)
  const [gl, setGl] = useState<WebGLRenderer | null>(null)
  const maxDpr = typeof window === 'undefined' ? 1 : Math.min(window.devicePixelRatio || 1, 2)
  const [dpr, setDpr] = useState(Math.min(maxDpr, 1.5))
  const [tier, setTier] = useState<'high' | 'low'>('high')
  const ceiling = tier === 'low' ? 1 : maxDpr
  // Adaptive resolution: drop the pixel ratio while the frame rate is low, raise it back when
  // there is room. (drei's PerformanceMonitor assumes a continuous loop; this host idles.)
  const onFrameRate = useCallback(
    (fps: number) =>
      setDpr((current) => {
        if (fps < 45) return Math.max(0.5, Math.round(current * 80) / 100)
        if (fps > 57) return Math.min(ceiling, Math.round(current * 115) / 100)
        return current
      }),
    [ceiling],
  )
  const ready = useMemo(() => new Set<string>(), [])

  useEffect(() => {
    const onVisibility = () => setHidden(document.visibilityState === 'hidden')
    onVisibility()
    document.addEventListener('visibilitychange', onVisibility)
    return () => document.removeEventListener('visibilitychange', onVisibility)
  }, [])

  const environment = useMemo(
    () => (gl && !lost && tier === 'high' ? roomEnvironment(gl) : null),
    [gl, lost, tier],
  )
  const host = useMemo(() => ({ hidden, environment, tier }), [hidden, environment, tier])

  const onCreated = (state: RootState) => {
    const canvas = state.gl.domElement
    // Reading a program's link status stalls the main thread; only development needs it.
    state.gl.debug.checkShaderErrors = process.env.NODE_ENV !== 'production'
    // A software renderer (no usable GPU) gets the low tier: pixel ratio 1, plain materials, no
    // environment map.
    const context = state.gl.getContext()
    const debugInfo = context.getExtension('WEBGL_debug_renderer_info')
    const renderer = String(
      context.getParameter(debugInfo ? debugInfo.UNMASKED_RENDERER_WEBGL : context.RENDERER),
    )
    if (/swiftshader|llvmpipe|software/i.test(renderer)) {
      setTier('low')
      setDpr(1)
    }
    // three.js prevents the default on loss, so the browser may restore the context.
    canvas.addEventListener('webglcontextlost', () => {
      setLost(true)
      threeStore.setAll('lost')
    })
    canvas.addEventListener('webglcontextrestored', () => {
      threeStore.setAll('loading')
      setLost(false)
      // Remount the scenes: their GPU resources went with the old context.
      setGeneration((g) => g + 1)
      state.invalidate()
    })
    setGl(state.gl)
  }

  const animating = slots.some(
    (s) =>
      s.visible &&
      !hidden &&
      !s.reducedMotion &&
      (tier === 'high' || forceMotion()) &&
      (s.spec.kind === 'procedural' ? s.spec.motion !== 'still' : s.spec.autoRotate),
  )

  if (failed) return null
  return (
    <div
      aria-hidden="true"
      style={{
        position: 'fixed',
        inset: 0,
        pointerEvents: 'none',
        zIndex: 'var(--facet-3d-layer, 1)' as unknown as number,
      }}
    >
      <Boundary
        onError={(error) => {
          console.warn('3D is off: the WebGL canvas could not be created.', error)
          setFailed(true)
          threeStore.setAll('unsupported')
        }}
      >
        <Canvas
          frameloop="demand"
          dpr={dpr}
          gl={{ antialias: true, alpha: true, powerPreference: 'high-performance' }}
          onCreated={onCreated}
          style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
        >
          <HostContext.Provider value={host}>
            <FrameBookkeeping
              ready={ready}
              lost={lost}
              animating={animating}
              tier={tier}
              onFrameRate={onFrameRate}
            />
            {!lost &&
              slots.map((slot) => (
                <SlotView key={`${slot.id}:${generation}`} slot={slot} ready={ready} />
              ))}
          </HostContext.Provider>
        </Canvas>
      </Boundary>
    </div>
  )
}
