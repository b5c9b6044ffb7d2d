'use client'
/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

import { Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { Canvas, useFrame, useThree, type RootState } from '@react-three/fiber'
import { View } from '@react-three/drei/web/View'
import { PerformanceMonitor } from '@react-three/drei/core/PerformanceMonitor'
import { ProceduralScene } from './scenes/ProceduralScene'
import { ModelScene } from './scenes/ModelScene'
import { roomEnvironment } from './environment'
import { Boundary, HostContext } from './host-context'
import { threeStore, type SlotEntry } from './store'
import type { WebGLRenderer } from 'three'

/** Marks a slot's scene as ready to be shown once it has been drawn. */
function Ready({ id, ready }: { id: string; ready: Set<string> }) {
  const invalidate = useThree((s) => s.invalidate)
  useEffect(() => {
    ready.add(id)
    invalidate()
    return () => void ready.delete(id)
  }, [id, ready, invalidate])
  return null
}

function SlotView({ slot, ready }: { slot: SlotEntry; ready: Set<string> }) {
  const track = useMemo(() => ({ current: slot.element }), [slot.element])
  const { spec } = slot
  return (
    <View track={track}>
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
          <Ready id={slot.id} ready={ready} />
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
}

/**
 * Frame bookkeeping: resets the renderer's counters before the views draw, then, after they
 * have drawn, turns each ready slot whose stage is on screen to `live` (the poster fades).
 */
function FrameBookkeeping({ ready, lost }: { ready: Set<string>; lost: boolean }) {
  const gl = useThree((s) => s.gl)
  const invalidate = useThree((s) => s.invalidate)
  const debug = useRef<DebugHook | null>(null)

  useEffect(() => {
    gl.info.autoReset = false
    if (new URLSearchParams(window.location.search).has('debug3d')) {
      debug.current = { renderer: gl, frames: 0, calls: 0, triangles: 0, dpr: gl.getPixelRatio() }
      ;(window as unknown as { __facet3d: DebugHook }).__facet3d = debug.current
    }
    // Views follow their elements; a fixed canvas must redraw when the page scrolls.
    const onScroll = () => invalidate()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [gl, invalidate])

  useFrame(() => gl.info.reset(), -1)
  useFrame(() => {
    const hook = debug.current
    if (hook) {
      hook.frames++
      hook.calls = gl.info.render.calls
      hook.triangles = gl.info.render.triangles
      hook.dpr = gl.getPixelRatio()
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
  const ready = useMemo(() => new Set<string>(), [])

  useEffect(() => {
    const onVisibility = () => setHidden(document.visibilityState === 'hidden')
    onVisibility()
    document.addEventListener('visibilitychange', onVisibility)
    return () => document.removeEventListener('visibilitychange', onVisibility)
  }, [])

  const environment = useMemo(() => (gl && !lost ? roomEnvironment(gl) : null), [gl, lost])
  const host = useMemo(() => ({ hidden, environment }), [hidden, environment])

  const onCreated = (state: RootState) => {
    const canvas = state.gl.domElement
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
            <FrameBookkeeping ready={ready} lost={lost} />
            {animating && (
              <PerformanceMonitor
                onChange={({ factor }) =>
                  setDpr(Math.max(0.75, Math.round(maxDpr * (0.5 + 0.5 * factor) * 4) / 4))
                }
              />
            )}
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
