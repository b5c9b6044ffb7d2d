/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

// The 3D renderer: one WebGL context on one canvas covering the viewport, each slot's scene drawn
// into its own rectangle (drei's View: scissor and viewport). It runs in a Web Worker on an
// OffscreenCanvas (render.worker.ts) or, where a worker cannot draw WebGL, on the main thread
// (CanvasHost.tsx). Either way it knows the page only through the bridge's messages: slots,
// rectangles, viewport, tab visibility and the viewer's commands.
//
// Why a bridge of our own rather than @react-three/offscreen, measured (`npm run bench:bridge`:
// the same lit torus knot drawn in a worker both ways, phone viewport, CPU 4× slower, median of
// 5): both draw with R3F 9 and React 19, but the package's page-side Canvas imports R3F's own
// Canvas as its fallback, so the page ships three.js and R3F anyway: 245.5 KB gzipped above
// React, against 3.3 KB for this bridge (the fallback renderer is a lazy chunk here), and its
// first frame came later (875 against 712 ms). While dragging and scrolling both kept the main
// thread free (no long task, slowest input 16 ms). It also forwards every DOM event to one
// full-canvas root, where this site sends a few rectangles and view commands to many views, and
// this module must also run on the main thread.
import {
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react'
import { createRoot, extend, useFrame, useThree, type RootState } from '@react-three/fiber'
import * as THREE from 'three'
import { WebGLRenderer } from 'three'
import { View } from '@react-three/drei/web/View'
import { ProceduralScene } from './scenes/ProceduralScene'
import { ModelScene } from './scenes/ModelScene'
import { roomEnvironment } from './environment'
import { Boundary, HostContext, mayAnimate } from './host-context'
import { createSceneStore, useSceneStore, type SceneStore } from './scene-store'
import { dprCeiling, nextDpr, startDpr, type Tier } from './resolution'
import type { DebugFlags, FromRenderer, Rect, SceneSlot, ToRenderer, Viewport } from '../protocol'

// R3F's <Canvas> registers three's classes as JSX elements; a root made with createRoot (needed
// for an OffscreenCanvas) must do it itself.
extend(THREE as unknown as Parameters<typeof extend>[0])

type Report = (message: FromRenderer) => void

/** What `startRenderer` needs to begin: the `init` message without its canvas. */
export type RendererInit = { viewport: Viewport; hidden: boolean; debug: DebugFlags }

/** A DOMRect-shaped view of a rectangle, for drei's View, which tracks an element's box. */
function boxOf(rect: Rect) {
  const { left, top, width, height } = rect
  return { left, top, width, height, x: left, y: top, right: left + width, bottom: top + height }
}

/**
 * Compiles the view's shaders without stalling (KHR_parallel_shader_compile, through
 * `compileAsync`), then lets the view draw and marks the slot's scene as ready to be shown.
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

function SlotView({
  slot,
  ready,
  store,
  report,
}: {
  slot: SceneSlot
  ready: Set<string>
  store: SceneStore
  report: Report
}) {
  // The View reads its element's box every frame; here the box is the one the page last sent.
  const track = useMemo(
    () =>
      ({
        current: { getBoundingClientRect: () => boxOf((store.get(slot.id) ?? slot).rect) },
      }) as unknown as RefObject<HTMLElement>,
    [store, slot],
  )
  const [compiled, setCompiled] = useState(false)
  const onCompiled = useCallback(() => setCompiled(true), [])
  const { spec } = slot
  return (
    <View track={track} visible={compiled}>
      <Boundary
        onError={(error) => {
          console.error('3D scene failed:', error)
          report({ type: 'error', id: slot.id, message: String(error) })
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

/**
 * The slots whose scenes may mount: one more per task, in a transition. Building a scene
 * (geometry, materials, a model's parse) is the renderer's heaviest work; on the main-thread
 * path this keeps each piece a task of its own, so input is handled in between.
 */
function useAdmitted(slots: SceneSlot[]): SceneSlot[] {
  const [admitted, setAdmitted] = useState<ReadonlySet<string>>(() => new Set())
  useEffect(() => {
    const next = slots.find((s) => !admitted.has(s.id))
    if (!next) return
    const timer = setTimeout(() =>
      startTransition(() => setAdmitted((current) => new Set(current).add(next.id))),
    )
    return () => clearTimeout(timer)
  }, [slots, admitted])
  return slots.filter((s) => admitted.has(s.id))
}

type Shared = {
  store: SceneStore
  report: Report
  ready: Set<string>
  hidden: boolean
  tier: Tier
  debug: DebugFlags
  /** The display's pixel ratio as the page last sent it, and the renderer's ceiling for it. */
  display: { deviceDpr: number; ceiling: number }
  /** The last `rects` message applied (a number the bridge sends with them). */
  rects: { seq: number }
}

/**
 * Frame bookkeeping: resets the renderer's counters before the views draw; after they have drawn,
 * reports each ready slot whose stage is on screen as live (its poster fades), samples the frame
 * rate for the adaptive resolution, and sends the debug figures.
 */
function FrameBookkeeping({ shared, lost }: { shared: Shared; lost: boolean }) {
  const { store, report, ready, hidden, tier, debug, display, rects } = shared
  const gl = useThree((s) => s.gl)
  const setDpr = useThree((s) => s.setDpr)
  const sample = useRef({ frames: 0, since: 0, total: 0 })
  const shown = useRef(new Set<string>())

  useEffect(() => {
    gl.info.autoReset = false
  }, [gl])

  useFrame(() => gl.info.reset(), -1)
  useFrame((state) => {
    const host = { hidden, tier, forceMotion: debug.motion }
    const animating = store
      .slots()
      .some(
        (s) =>
          mayAnimate(s, host) &&
          (s.spec.kind === 'procedural' ? s.spec.motion !== 'still' : s.spec.autoRotate),
      )
    // A demand loop idles when nothing moves: only frames of motion say how fast the GPU is.
    const now = performance.now()
    const rate = sample.current
    rate.total++
    if (!animating) rate.since = 0
    else if (rate.since === 0) Object.assign(rate, { since: now, frames: 0 })
    else if (++rate.frames >= 20 || now - rate.since > 2000) {
      const fps = (rate.frames * 1000) / (now - rate.since)
      const dpr = nextDpr(state.viewport.dpr, fps, display.ceiling)
      if (dpr !== state.viewport.dpr) setDpr(dpr)
      Object.assign(rate, { since: now, frames: 0 })
    }
    if (debug.hook)
      report({
        type: 'stats',
        frames: rate.total,
        calls: gl.info.render.calls,
        triangles: gl.info.render.triangles,
        dpr: gl.getPixelRatio(),
        deviceDpr: display.deviceDpr,
        ceiling: display.ceiling,
        tier,
        seq: rects.seq,
      })
    for (const id of shown.current) if (!ready.has(id)) shown.current.delete(id)
    if (lost) return
    const drawn: string[] = []
    for (const id of ready) {
      const rect = store.get(id)?.rect
      if (!rect || shown.current.has(id)) continue
      if (rect.top + rect.height > 0 && rect.top < state.size.height && rect.width > 0)
        drawn.push(id)
    }
    if (!drawn.length) return
    for (const id of drawn) shown.current.add(id)
    // The views drew in this frame; say so once it has reached the screen.
    requestAnimationFrame(() => report({ type: 'live', ids: drawn }))
  }, 2)
  return null
}

function Scenes({
  shared,
  lost,
  generation,
}: {
  shared: Shared
  lost: boolean
  generation: number
}) {
  const { store, report, ready, hidden, tier, debug } = shared
  useSceneStore(store)
  const slots = useAdmitted(store.slots())
  const gl = useThree((s) => s.gl)
  const environment = useMemo(
    () => (!lost && tier === 'high' ? roomEnvironment(gl) : null),
    [gl, lost, tier],
  )
  const host = useMemo(
    () => ({ hidden, environment, tier, forceMotion: debug.motion, store, report }),
    [hidden, environment, tier, debug.motion, store, report],
  )
  return (
    <HostContext.Provider value={host}>
      <FrameBookkeeping shared={shared} lost={lost} />
      {!lost &&
        slots.map((slot) => (
          <SlotView
            key={`${slot.id}:${generation}`}
            slot={slot}
            ready={ready}
            store={store}
            report={report}
          />
        ))}
    </HostContext.Provider>
  )
}

/** A software renderer (no usable GPU) gets the low tier: pixel ratio 1, plain materials. */
function tierOf(gl: WebGLRenderer): Tier {
  const context = gl.getContext()
  const info = context.getExtension('WEBGL_debug_renderer_info')
  const name = String(context.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : context.RENDERER))
  return /swiftshader|llvmpipe|software/i.test(name) ? 'low' : 'high'
}

/**
 * Starts the renderer on `canvas` and returns the function that takes the page's messages. It
 * reports `unsupported` when no WebGL context can be created here.
 */
export function startRenderer(
  canvas: HTMLCanvasElement | OffscreenCanvas,
  init: RendererInit,
  report: Report,
): (message: ToRenderer) => void {
  const store = createSceneStore()
  const root = createRoot(canvas)
  const display = { deviceDpr: init.viewport.dpr, ceiling: 1 }
  let state: { lost: boolean; generation: number; hidden: boolean } = {
    lost: false,
    generation: 0,
    hidden: init.hidden,
  }
  let shared: Shared | null = null
  let tier: Tier = 'high'
  let r3f: { getState: () => RootState } | null = null
  let loseContext: WEBGL_lose_context | null = null
  const pending: ToRenderer[] = []
  const rects = { seq: 0 }

  const draw = () => {
    if (!shared) return
    shared = { ...shared, hidden: state.hidden }
    r3f = root.render(
      <Boundary
        onError={(error) => report({ type: 'unsupported', reason: `renderer failed: ${error}` })}
      >
        <Scenes shared={shared} lost={state.lost} generation={state.generation} />
      </Boundary>,
    )
  }
  const invalidate = () => r3f?.getState().invalidate()

  const receive = (message: ToRenderer) => {
    if (message.type === 'dispose') return root.unmount()
    if (!shared || !r3f) {
      pending.push(message)
      return
    }
    const three = r3f.getState()
    switch (message.type) {
      case 'slots':
        store.setSlots(message.slots)
        invalidate()
        break
      case 'rects': {
        store.setRects(message.rects)
        rects.seq = message.seq
        const { width, height, dpr } = message.viewport
        if (three.size.width !== width || three.size.height !== height)
          three.setSize(width, height, 0, 0)
        // The display changed (a window moved to another screen, a browser zoom): the renderer
        // follows it from its starting ratio, and adapts again from there.
        if (dpr !== display.deviceDpr) {
          display.deviceDpr = dpr
          display.ceiling = dprCeiling(dpr, tier)
          three.setDpr(startDpr(display.ceiling))
        }
        invalidate()
        break
      }
      case 'hidden':
        state = { ...state, hidden: message.hidden }
        draw()
        break
      case 'command':
        store.command(message.id, message.command)
        break
      case 'lose-context':
        loseContext = three.gl.getContext().getExtension('WEBGL_lose_context')
        loseContext?.loseContext()
        break
      case 'restore-context':
        loseContext?.restoreContext()
        break
    }
  }

  // three.js prevents the default on loss, so the browser may restore the context.
  const onLost = () => {
    state = { ...state, lost: true }
    report({ type: 'lost' })
    draw()
  }
  const onRestored = () => {
    // Remount the scenes: their GPU resources went with the old context.
    state = { ...state, lost: false, generation: state.generation + 1 }
    report({ type: 'restored' })
    draw()
    invalidate()
  }

  const createGl = (defaults: ConstructorParameters<typeof WebGLRenderer>[0]) => {
    const gl = new WebGLRenderer(defaults)
    // Reading a program's link status stalls the thread; only development needs it.
    gl.debug.checkShaderErrors = process.env.NODE_ENV !== 'production'
    tier = tierOf(gl)
    canvas.addEventListener('webglcontextlost', onLost)
    canvas.addEventListener('webglcontextrestored', onRestored)
    return gl
  }

  const { width, height } = init.viewport
  // The context is made in a task of its own (on the main-thread path, the module's evaluation
  // came just before).
  new Promise((resolve) => setTimeout(resolve))
    .then(() =>
      root.configure({
        frameloop: 'demand',
        size: { width, height, top: 0, left: 0 },
        // Pixel ratio 1 until the tier is known: a software renderer keeps it (no larger buffer
        // is allocated only to be dropped); a GPU gets its own below.
        dpr: 1,
        gl: createGl,
      }),
    )
    .then(
      () => {
        // One task for the context, another for the first render: the main-thread path yields.
        setTimeout(() => {
          shared = {
            store,
            report,
            ready: new Set(),
            hidden: state.hidden,
            tier,
            debug: init.debug,
            display,
            rects,
          }
          draw()
          report({ type: 'ready' })
          display.ceiling = dprCeiling(display.deviceDpr, tier)
          if (tier === 'high') r3f?.getState().setDpr(startDpr(display.ceiling))
          for (const message of pending.splice(0)) receive(message)
        })
      },
      (error: unknown) => report({ type: 'unsupported', reason: String(error) }),
    )
  return receive
}
