/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

// The 3D renderer: one WebGL context on one canvas covering the viewport, each slot's scene drawn
// into its own rectangle (scissor and viewport, as drei's View does). It runs in a Web Worker on an
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
import { lazy, startTransition, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import {
  createPortal,
  createRoot,
  extend,
  useFrame,
  useThree,
  type RootState,
} from '@react-three/fiber'
import { PerspectiveCamera, Scene, Vector2, WebGLRenderer } from 'three'
import { forgetEnvironments } from './environment-cache'
import { lazyChunk } from './chunks'
import { arrived, onArrival } from './arrivals'
import { toneMappingOf } from './tone-mapping'
import { Boundary, caughtErrors, HostContext, mayAnimate } from './host-context'
import { createSceneStore, onCanvas, useSceneStore, type SceneStore } from './scene-store'
import { dprCeiling, median, nextDpr, startDpr, tierFromProbe, type Tier } from './resolution'
import { probeGpu } from './gpu-probe'
import { PREFETCH_MAX_BYTES, prefetchModel } from './prefetch'
import { prefetchDecoders } from './decoder-prefetch'
import { environmentUrlFor, modelUrlFor } from '../model-variant'
import type {
  DebugFlags,
  FromRenderer,
  ModelInfo,
  SceneSlot,
  ToRenderer,
  Viewport,
  WarmMessage,
} from '../protocol'
import type { ViewOrbit } from '../store'

// R3F's <Canvas> registers all of three's classes as JSX elements; a root made with createRoot
// (needed for an OffscreenCanvas) must do it itself. Only the elements the scenes and drei's
// components draw are registered: `extend(THREE)` kept every class of three.js in the 3D chunk
// (the bundler cannot drop what a namespace object hands on), 50 KB gzipped more than the scenes
// use. Each scene chunk registers its own (scenes/ModelScene.tsx, scenes/ProceduralScene.tsx), so
// that their classes are not in this one; here, the camera every scene has (SceneCamera). A scene
// that writes a new element must add its class; R3F throws naming it otherwise.
extend({ PerspectiveCamera })

type Report = (message: FromRenderer) => void

/**
 * The scenes, each kind a chunk of its own, so that a page loads only the code of the scenes it
 * shows. The model scenes (scenes/ModelScene.tsx: three's GLTFLoader and meshopt decoder, the
 * model's camera, shadow, environment files, animation, variants and hotspots) are 62 KB gzipped
 * that a page whose only 3D is a generated hero (the home page) never uses; the generated scenes
 * (scenes/ProceduralScene.tsx, with three's RoomEnvironment) are what a page of models never
 * uses. A page asks for a kind's chunk as a slot of that kind nears the screen (`warm`), beside
 * its model's file, or else with the `slots` that name one (chunks.ts: fetched side by side,
 * without holding the worker).
 */
const modelScenes = lazyChunk(() => import('./scenes/ModelScene'))
const proceduralScenes = lazyChunk(() => import('./scenes/ProceduralScene'))
/** A chunk's arrival re-renders the scenes at once (arrivals.ts). */
const announced = <T,>(chunk: T): T => {
  setTimeout(arrived)
  return chunk
}
const ModelScene = lazy(() =>
  modelScenes.load().then((chunk) => announced({ default: chunk.ModelScene })),
)
const ProceduralScene = lazy(() =>
  proceduralScenes.load().then((chunk) => announced({ default: chunk.ProceduralScene })),
)

/**
 * R3F hands React every error a boundary caught to `reportError` (its root's `onCaughtError`),
 * which dispatches it as an uncaught error: a model that cannot be drawn, which its scene's
 * boundary has turned into the poster and the slice's message (and the page into one console
 * line naming the file), was also an uncaught error of the page or the worker. Errors a
 * `Boundary` caught are left out here; any other goes to `reportError` as before. Must run before
 * R3F's `createRoot`, which reads `reportError` then.
 */
function reportCaughtOnce() {
  const report = globalThis.reportError
  if (typeof report !== 'function' || (report as { facet?: true }).facet) return
  const filtered = (error: unknown) => {
    if (error !== null && typeof error === 'object' && caughtErrors.has(error)) return
    report.call(globalThis, error)
  }
  globalThis.reportError = Object.assign(filtered, { facet: true as const })
}

/** What `startRenderer` needs to begin: the `init` message without its canvas. */
export type RendererInit = {
  viewport: Viewport
  hidden: boolean
  debug: DebugFlags
  /** The page's URL: model URLs of its origin are asked for as the tier's variant. */
  base: string
}

/** The tone mapping a slot draws with: its look's (the procedural scenes keep ACES). */
function slotToneMapping(store: SceneStore, id: string) {
  const spec = store.get(id)?.spec
  return toneMappingOf(spec && spec.kind !== 'procedural' ? spec.look.toneMapping : undefined)
}

/**
 * Compiles the view's shaders without stalling (KHR_parallel_shader_compile, through
 * `compileAsync`), then lets the view draw and marks the slot's scene as ready to be shown.
 * Compiled with the tone mapping the slot draws with: a program is made for one tone mapping, and
 * compiled with another (the renderer's last, R3F's ACES at first), each of the model's materials
 * was compiled again, in the first frame, holding it.
 */
function Ready({ id, ready, store }: { id: string; ready: Set<string>; store: SceneStore }) {
  const gl = useThree((s) => s.gl)
  const scene = useThree((s) => s.scene)
  const camera = useThree((s) => s.camera)
  const invalidate = useThree((s) => s.invalidate)
  useEffect(() => {
    let live = true
    const before = gl.toneMapping
    gl.toneMapping = slotToneMapping(store, id)
    // The programs are chosen in this call; only their compiling goes on after it.
    const compiled = gl.compileAsync(scene, camera)
    gl.toneMapping = before
    void compiled.then(() => {
      if (!live) return
      ready.add(id)
      invalidate()
    })
    return () => {
      live = false
      ready.delete(id)
    }
  }, [id, ready, invalidate, gl, scene, camera, store])
  return null
}

/**
 * Draws one slot's scene into its rectangle, in every frame the loop runs, once the scene is
 * ready and the rectangle (the one the page last sent, read now) is on the canvas; notes in
 * `drawn` that it did. Unlike drei's View, whether it draws is decided in the frame itself, from
 * plain data: no React state lags a frame behind (drei's `visible` and off-screen flags did, so a
 * frame could count as drawn without drawing, and the re-render that followed cleared the slot's
 * rectangle without asking for another frame).
 */
function ViewFrame({
  id,
  store,
  ready,
  drawn,
  shown,
}: {
  id: string
  store: SceneStore
  ready: Set<string>
  drawn: Set<string>
  shown: Set<string>
}) {
  // A scene mounted again (new content, a restored context) has not been drawn yet.
  useEffect(() => () => void shown.delete(id), [shown, id])
  const size = useMemo(() => new Vector2(), [])
  useFrame((state) => {
    const rect = store.get(id)?.rect
    if (!rect || !ready.has(id)) return
    const { gl, scene, camera } = state
    const canvas = gl.getSize(size)
    if (!onCanvas(rect, canvas.x, canvas.y)) return
    const { left, top, width, height } = rect
    const aspect = width / height
    if (camera instanceof PerspectiveCamera && camera.aspect !== aspect) {
      camera.aspect = aspect
      camera.updateProjectionMatrix()
    }
    const bottom = canvas.y - (top + height)
    // The slot's tone mapping and exposure (a model's look; the procedural scenes keep ACES at 1).
    const spec = store.get(id)?.spec
    const look = spec && spec.kind !== 'procedural' ? spec.look : null
    gl.toneMapping = slotToneMapping(store, id)
    gl.toneMappingExposure = store.exposure(id) ?? look?.exposure ?? 1
    const autoClear = gl.autoClear
    gl.autoClear = false
    gl.setViewport(left, bottom, width, height)
    gl.setScissor(left, bottom, width, height)
    gl.setScissorTest(true)
    // A buffer the browser does not clear between frames (`?debug3d=preserve`) is cleared here,
    // in the slot's rectangle: else each frame would draw over the last.
    if (gl.getContext().getContextAttributes()?.preserveDrawingBuffer) gl.clear()
    gl.render(scene, camera)
    gl.setScissorTest(false)
    gl.autoClear = autoClear
    drawn.add(id)
    shown.add(id)
  }, 1)
  return null
}

function SlotView({
  slot,
  ready,
  drawn,
  shown,
  store,
  report,
}: {
  slot: SceneSlot
  ready: Set<string>
  drawn: Set<string>
  shown: Set<string>
  store: SceneStore
  report: Report
}) {
  // Each scene lives in a scene of its own, with its own default camera (SceneCamera).
  const [scene] = useState(() => new Scene())
  const { spec } = slot
  const { width, height } = slot.rect
  return createPortal(
    <>
      <ViewFrame id={slot.id} store={store} ready={ready} drawn={drawn} shown={shown} />
      <Boundary
        // The page says it on its console, naming the model (one line, on either path).
        onError={(error) =>
          report({
            type: 'error',
            id: slot.id,
            message: error instanceof Error ? error.message : String(error),
          })
        }
      >
        <Suspense fallback={null}>
          {spec.kind === 'procedural' ? (
            <ProceduralScene slot={slot} spec={spec} />
          ) : (
            <ModelScene slot={slot} spec={spec} />
          )}
          <Ready id={slot.id} ready={ready} store={store} />
        </Suspense>
      </Boundary>
    </>,
    scene,
    { size: { width: Math.max(1, width), height: Math.max(1, height), top: 0, left: 0 } },
  )
}

/**
 * How long a scene off the screen waits at most for those on it to be drawn before it may mount
 * all the same (one on the screen that fails is never drawn).
 */
export const OFF_SCREEN_WAIT_MS = 3000

/**
 * The slots whose scenes may mount: one more per task, in a transition. Building a scene
 * (geometry, materials, a model's parse) is the renderer's heaviest work; on the main-thread
 * path this keeps each piece a task of its own, so input is handled in between. Those on the
 * screen first, and one off it only once every one on it has been drawn (`waiting` no longer
 * holds it), or after OFF_SCREEN_WAIT_MS: a visitor who scrolled to the showcase's viewer before
 * the page went quiet had the hero's two scenes, above and out of sight by then, compiled and
 * drawn before the viewer's (traced on slow 4G: the viewer's compile began 0.8 s after its model
 * was read).
 */
function useAdmitted(slots: SceneSlot[], waiting: Set<string>): SceneSlot[] {
  const [admitted, setAdmitted] = useState<ReadonlySet<string>>(() => new Set())
  // Bumped to look again while an off-screen scene waits: `waiting` is no React state.
  const [looks, lookAgain] = useState(0)
  const blockedSince = useRef<number | null>(null)
  useEffect(() => {
    const pending = slots.filter((s) => !admitted.has(s.id))
    if (!pending.length) return
    let next = pending.find((s) => s.visible)
    if (!next) {
      const drawing = slots.some((s) => s.visible && admitted.has(s.id) && waiting.has(s.id))
      const now = performance.now()
      blockedSince.current ??= now
      if (drawing && now - blockedSince.current < OFF_SCREEN_WAIT_MS) {
        const timer = setTimeout(() => lookAgain((n) => n + 1), 50)
        return () => clearTimeout(timer)
      }
      next = pending[0]!
    }
    blockedSince.current = null
    const chosen = next
    const timer = setTimeout(() =>
      startTransition(() => setAdmitted((current) => new Set(current).add(chosen.id))),
    )
    return () => clearTimeout(timer)
  }, [slots, admitted, waiting, looks])
  return slots.filter((s) => admitted.has(s.id))
}

type Shared = {
  store: SceneStore
  report: Report
  ready: Set<string>
  /** The slots the current frame has drawn so far. */
  drawn: Set<string>
  /** The slots some frame has drawn since their scene mounted (HostState's `drawnOnce`). */
  shown: Set<string>
  /** The slots whose posters still show on the page: a frame that draws one says so. */
  waiting: Set<string>
  hidden: boolean
  tier: Tier
  /** The GPU probe's median draw time, in ms. */
  probeMs: number
  debug: DebugFlags
  /** The page's URL (see `RendererInit`). */
  base: string
  /** Each model slot's loaded model (`?debug3d`), by slot id. */
  models: Record<string, ModelInfo>
  /** Each viewer's camera orbit (`?debug3d`), by slot id. */
  orbits: Record<string, ViewOrbit>
  /** The slots whose scenes move by themselves (useReportMoves). */
  moving: Set<string>
  /** Each model slot's art direction drawn (`?debug3d`'s respec), by slot id. */
  revisions: Record<string, number>
  /** The display's pixel ratio as the page last sent it, and the renderer's ceiling for it. */
  display: { deviceDpr: number; ceiling: number }
  /** The last `rects` message applied (a number the bridge sends with them). */
  rects: { seq: number }
}

/**
 * Frame bookkeeping: before the views draw, resets the renderer's counters; after they have
 * drawn, clears what is left of the last frame if this one drew nothing, reports the waiting
 * slots this frame drew (their posters may fade), samples the frame rate for the adaptive resolution, and sends the debug
 * figures.
 */
function FrameBookkeeping({ shared, lost }: { shared: Shared; lost: boolean }) {
  const {
    store,
    report,
    drawn,
    waiting,
    hidden,
    tier,
    probeMs,
    debug,
    display,
    rects,
    models,
    orbits,
  } = shared
  const gl = useThree((s) => s.gl)
  const setDpr = useThree((s) => s.setDpr)
  const sample = useRef({ frames: 0, since: 0, total: 0 })
  const drewLast = useRef(false)

  useEffect(() => {
    gl.info.autoReset = false
  }, [gl])

  /** A pixel ratio the last frame chose, applied before the next one draws (see below). */
  const nextRatio = useRef<number | null>(null)
  // `?debug3d`: when this frame began, on a clock the page shares (the worker's own starts later).
  const began = useRef(0)
  useFrame(() => {
    if (debug.hook) began.current = performance.timeOrigin + performance.now()
    // A new ratio resizes the canvas's buffer, which empties it: applied here, before the views
    // draw, not after (the frame would show the canvas empty).
    if (nextRatio.current !== null) {
      setDpr(nextRatio.current)
      nextRatio.current = null
    }
    gl.info.reset()
    drawn.clear()
  }, -1)
  useFrame((state) => {
    // A frame that draws nothing leaves the last one on screen: where the last one drew, clear
    // (a slot that has left the canvas leaves no trace); a canvas already empty stays untouched.
    // A frame that draws starts from a cleared buffer (preserveDrawingBuffer is off).
    if (!drawn.size && drewLast.current) {
      gl.setScissorTest(false)
      gl.clear()
    }
    drewLast.current = drawn.size > 0
    const host = { hidden, tier, forceMotion: debug.motion }
    // The scenes say what moves by itself (useReportMoves): an auto-rotate at 0° a second or a
    // model with no clip to play does not.
    const animating = store.slots().some((s) => mayAnimate(s, host) && shared.moving.has(s.id))
    // A demand loop idles when nothing moves: only frames of motion say how fast the GPU is.
    const now = performance.now()
    const rate = sample.current
    rate.total++
    if (!animating) rate.since = 0
    else if (rate.since === 0) Object.assign(rate, { since: now, frames: 0 })
    else if (++rate.frames >= 20 || now - rate.since > 2000) {
      const fps = (rate.frames * 1000) / (now - rate.since)
      const dpr = nextDpr(state.viewport.dpr, fps, display.ceiling)
      // Animating: the next frame comes, and takes it before it draws.
      if (dpr !== state.viewport.dpr) nextRatio.current = dpr
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
        probeMs,
        antialias: gl.getContext().getContextAttributes()?.antialias ?? false,
        seq: rects.seq,
        began: began.current,
        models: { ...models },
        orbits: { ...orbits },
        revisions: { ...shared.revisions },
      })
    if (lost) return
    const ids = [...drawn].filter((id) => waiting.has(id))
    if (!ids.length) return
    for (const id of ids) waiting.delete(id)
    // Drawn with the rectangles of `rects` message `seq`: the page lets a poster fade only if
    // its slot has not moved since (else it asks again). Said once the frame is on screen.
    const seq = rects.seq
    requestAnimationFrame(() => report({ type: 'live', ids, seq }))
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
  const { store, report, ready, hidden, tier, debug, base, models, orbits, revisions, moving } =
    shared
  useSceneStore(store)
  // Something a scene waited for is here: rendered again now, in a plain update (arrivals.ts).
  const [, rerender] = useState(0)
  useEffect(() => onArrival(() => rerender((n) => n + 1)), [])
  const slots = useAdmitted(store.slots(), shared.waiting)
  const host = useMemo(
    () => ({
      hidden,
      tier,
      forceMotion: debug.motion,
      store,
      report,
      model: { choice: debug.model, base, loaded: debug.hook ? models : null },
      orbits: debug.hook ? orbits : null,
      revisions: debug.hook ? revisions : null,
      moving,
      drawnOnce: (id: string) => shared.shown.has(id),
    }),
    [
      hidden,
      tier,
      debug.motion,
      debug.model,
      debug.hook,
      base,
      models,
      orbits,
      revisions,
      moving,
      store,
      report,
      shared.shown,
    ],
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
            drawn={shared.drawn}
            shown={shared.shown}
            store={store}
            report={report}
          />
        ))}
    </HostContext.Provider>
  )
}

/** The tier from a few timed draws on `gl` (gpu-probe.ts), and their median time. */
async function timed(gl: WebGLRenderer): Promise<{ tier: Tier; probeMs: number }> {
  const samples = await probeGpu(gl)
  return { tier: tierFromProbe(samples), probeMs: median(samples.slice(1)) }
}

/**
 * The GPU probe in a worker, on a throwaway context of a 1 × 1 OffscreenCanvas (it draws into its
 * own target), released before the canvas's context is made: so that context is made for the
 * tier, multisampled (MSAA) on the high tier only. On a software renderer every sample is the
 * CPU's work, and with software compositing each frame is read back too. Traced on the showcase
 * in a window (SwiftShader), a frame's read-back waited a median 35 ms without MSAA, 61 ms with it,
 * and a key's frame waits behind it (docs/3d.md, "Input as the 3D arrives"). On the main-thread
 * path a second context would cost the page's thread its creation; there the probe uses the
 * canvas's own context. Null when no throwaway context could be made or timed.
 */
async function probeOnThrowaway(): Promise<{ tier: Tier; probeMs: number } | null> {
  let gl: WebGLRenderer
  try {
    gl = new WebGLRenderer({ canvas: new OffscreenCanvas(1, 1), antialias: false })
  } catch {
    return null
  }
  try {
    return await timed(gl)
  } catch {
    return null
  } finally {
    gl.dispose()
    gl.forceContextLoss()
  }
}

/** The worker's GPU probe, started by `warm` before the canvas came. */
let warmed: Promise<{ tier: Tier; probeMs: number } | null> | null = null

/**
 * A worker's start before its canvas (the page sends `warm` as a slot nears the screen): times
 * the GPU on a throwaway context, then fetches each model's file for that tier (prefetch.ts; up to
 * its cap, PREFETCH_MAX_BYTES: a larger file waits for the engagement),
 * so that `startRenderer` finds the tier measured and the bytes here or on their way, and the
 * decoders a model needs in the HTTP cache. Called again with more models, it fetches those; the
 * probe runs once.
 */
export function warm({ debug, base, models, procedural }: Omit<WarmMessage, 'type'>): void {
  // The scenes' code, while the GPU is timed.
  if (models.length) modelScenes.start()
  if (procedural) proceduralScenes.start()
  warmed ??= probeOnThrowaway()
  void warmed.then((probe) => {
    // No throwaway context: the canvas's own will be timed, and the models fetched for it then.
    if (!probe) return
    for (const url of models)
      // One model at a time, so each knows what the ones before it spent.
      warming = warming.then(() => {
        if (warmBudget <= 0) return
        const bytes = prefetchModel(modelUrlFor(url, debug.model, probe.tier, base), warmBudget)
        // And the decoders it will need (Draco; KTX2's is too large), known from its JSON once
        // it is here, within what is left. (Not by the model scenes' code: the next model would
        // wait for that chunk, and on a phone's network come after the visitor's scroll.)
        return bytes?.then(
          (model) => {
            warmBudget -= model.byteLength
            warmBudget -= prefetchDecoders(model, warmBudget)
          },
          () => {},
        )
      })
  })
}

/**
 * What the warm-up may still fetch before the visitor engages, models and decoders together: a
 * visitor who never scrolls pays for all of it. Model files count at their size in memory (no less
 * than on the wire), decoders at their size on the wire (`DECODER_WIRE_BYTES`).
 */
let warmBudget = PREFETCH_MAX_BYTES
let warming: Promise<void> = Promise.resolve()

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
  reportCaughtOnce()
  const root = createRoot(canvas)
  const display = { deviceDpr: init.viewport.dpr, ceiling: 1 }
  let state: { lost: boolean; generation: number; hidden: boolean } = {
    lost: false,
    generation: 0,
    hidden: init.hidden,
  }
  let shared: Shared | null = null
  let tier: Tier = 'low'
  let probeMs = NaN
  let renderer: WebGLRenderer | null = null
  /** The slots whose posters the page still shows (see `Shared.waiting`). */
  const waiting = new Set<string>()
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
      case 'slots': {
        const known = new Set(store.slots().map((s) => s.id))
        const added = message.slots.filter((slot) => !known.has(slot.id))
        for (const slot of added) waiting.add(slot.id)
        // A model not warmed up for (the visitor came before the warm-up): its file and the model
        // scenes' code side by side, not the code, then the file its scene asks for. And its
        // environment file, warmed up or not, beside them: its scene asks for it only once its
        // code is here, and a visitor who came early had the light arrive after the model (traced
        // on slow 4G: 0.9 s after). The warm-up itself fetches none: a visitor who never scrolls
        // pays nothing for it.
        for (const { spec } of added) {
          if (spec.kind === 'procedural') {
            proceduralScenes.start()
            continue
          }
          if (!modelScenes.here) {
            prefetchModel(modelUrlFor(spec.url, init.debug.model, tier, init.base))
            modelScenes.start()
          }
          const { environment, skybox } = spec.look
          if (environment.kind === 'file')
            prefetchModel(environmentUrlFor(environment.url, tier, skybox, init.base))
        }
        store.setSlots(message.slots)
        invalidate()
        break
      }
      case 'rects': {
        store.setRects(message.rects)
        store.setScroll(message.scroll)
        rects.seq = message.seq
        waiting.clear()
        for (const id of message.waiting) waiting.add(id)
        const { width, height, dpr } = message.viewport
        const before = { width: renderer?.domElement.width, height: renderer?.domElement.height }
        if (three.size.width !== width || three.size.height !== height)
          three.setSize(width, height, 0, 0)
        // The display changed (a window moved to another screen, a browser zoom): the renderer
        // follows it from its starting ratio, and adapts again from there.
        if (dpr !== display.deviceDpr) {
          display.deviceDpr = dpr
          display.ceiling = dprCeiling(dpr, tier)
          three.setDpr(startDpr(display.ceiling))
        }
        // A canvas whose buffer changed size is empty: it is drawn again in this same task, so
        // that no frame shows it empty (a flash of the slots' bare background at each resize,
        // which a phone's collapsing address bar makes on scroll). Else the next frame draws.
        const canvasNow = renderer?.domElement
        if (canvasNow && (canvasNow.width !== before.width || canvasNow.height !== before.height))
          three.advance(performance.now())
        else invalidate()
        break
      }
      case 'hidden':
        state = { ...state, hidden: message.hidden }
        // Hidden, no frame at all: not the one a model, an environment or a shadow arriving
        // meanwhile would ask for (their invalidations are dropped, the next frame draws them).
        three.setFrameloop(message.hidden ? 'never' : 'demand')
        draw()
        // Back in view: draw again, whether or not anything moves.
        if (!message.hidden) invalidate()
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
    // Remount the scenes: their GPU resources went with the old context, their environments too.
    if (renderer) forgetEnvironments(renderer)
    state = { ...state, lost: false, generation: state.generation + 1 }
    for (const slot of store.slots()) waiting.add(slot.id)
    report({ type: 'restored' })
    draw()
    invalidate()
  }

  const createGl = (defaults: ConstructorParameters<typeof WebGLRenderer>[0]) => {
    const gl = (renderer = new WebGLRenderer(defaults))
    // Reading a program's link status stalls the thread; only development needs it.
    gl.debug.checkShaderErrors = process.env.NODE_ENV !== 'production'
    canvas.addEventListener('webglcontextlost', onLost)
    canvas.addEventListener('webglcontextrestored', onRestored)
    return gl
  }

  const { width, height } = init.viewport
  const timeGpu = async (gl: WebGLRenderer) => {
    ;({ tier, probeMs } = await timed(gl))
  }
  // In a worker, the tier is known before the canvas's context is made, so that context is made
  // for it (see `probeOnThrowaway`), timed already when the page warmed the worker up (`warm`).
  const inWorker = typeof OffscreenCanvas !== 'undefined' && canvas instanceof OffscreenCanvas
  const probedFirst = async () => {
    if (!inWorker) return
    const probe = await (warmed ?? probeOnThrowaway())
    if (!probe) return // No context for the probe: it runs on the canvas's own, below.
    tier = probe.tier
    probeMs = probe.probeMs
  }
  // The context is made in a task of its own (on the main-thread path, the module's evaluation
  // came just before).
  new Promise((resolve) => setTimeout(resolve))
    .then(probedFirst)
    .then(() =>
      root.configure({
        frameloop: state.hidden ? 'never' : 'demand',
        size: { width, height, top: 0, left: 0 },
        // Pixel ratio 1 until the tier is known: a software renderer keeps it (no larger buffer
        // is allocated only to be dropped); a GPU gets its own below.
        dpr: 1,
        // Timed already (a finite time): the tier decides; else MSAA, as before the probe.
        gl: (defaults) =>
          createGl({
            ...defaults,
            antialias: Number.isFinite(probeMs) ? tier === 'high' : true,
            preserveDrawingBuffer: init.debug.preserve,
          }),
      }),
    )
    // The tier from what this device does: a few timed draws, each a task of its own.
    .then(async () => {
      if (!renderer) throw new Error('no WebGL renderer was made')
      if (!Number.isFinite(probeMs)) await timeGpu(renderer)
    })
    .then(
      () => {
        // One task for the context, another for the first render: the main-thread path yields.
        setTimeout(() => {
          shared = {
            store,
            report,
            ready: new Set(),
            drawn: new Set(),
            shown: new Set(),
            waiting,
            hidden: state.hidden,
            tier,
            probeMs,
            debug: init.debug,
            base: init.base,
            models: {},
            orbits: {},
            revisions: {},
            moving: new Set(),
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
