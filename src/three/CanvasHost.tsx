'use client'

// The page's side of the 3D: one fixed, transparent, click-through canvas over the page, and a
// bridge to the renderer that draws on it. No three.js here: the renderer runs in a Web Worker on
// the canvas's OffscreenCanvas (render/render.worker.ts), so a visitor's scrolls and keys never
// wait for scene building, model decoding or shader compiles. Where a worker cannot draw WebGL
// (no OffscreenCanvas, or no WebGL context in a worker), the same renderer runs on the main
// thread instead (render/renderer.tsx, imported on demand), its setup split into tasks. Which
// one is asked of a tiny probe worker, never of a context on this thread (./webgl-probe.ts).
//
// The bridge forwards what the scenes need: each slot's scene, visibility and rectangle (on
// scroll, resize and layout changes), the viewport and pixel ratio, tab visibility, reduced
// motion and the visitor's pause, and the viewer's pointer, wheel and touch input as view commands
// (viewer/gestures.ts). It receives first frames drawn, download progress, errors, whether each
// scene moves by itself, and context loss and restore.
import { useEffect, useRef, useState } from 'react'
import { threeStore, type SceneSpec, type ViewCommand } from './store'
import type { SceneCamera, SceneLook } from '@rules/look'
import type {
  DebugFlags,
  FromRenderer,
  Rect,
  RenderStats,
  SceneSlot,
  ToRenderer,
  Viewport,
} from './protocol'
import {
  askWorker,
  firstPath,
  mainOrOff,
  probeWorker,
  workerPath,
  type RenderPath,
} from './webgl-probe'
import { startWorker } from './worker-scripts'
import { serveSpawns } from './worker-relay'
import { placeHotspots } from './viewer/HotspotLayer'
import { ViewerOverlays } from './viewer/ViewerOverlay'
import { wireViewer } from './viewer/gestures'
import { showStoryView, wireStoryEditor } from './story/editor'
import { PREVIEW_COOKIE } from '@/lib/ar'

export type { RenderPath }

/** The debug hook tests and benchmarks read (`?debug3d`). */
type DebugHook = RenderStats & {
  path: RenderPath
  /** The last `rects` message sent: when `seq` has caught up, the canvas shows the page as is. */
  sent: number
  /** When each of the last 1,000 `rects` messages was sent (the clock of `began`), by `seq`. */
  sentAt: Map<number, number>
  /** Each frame drawn, as its figures said: the `rects` message it drew with, and when it began. */
  drawn: { seq: number; began: number }[]
  loseContext: () => void
  restoreContext: () => void
  /**
   * Gives the model slot whose stage is `stage` other art direction (look.ts: parts of its look
   * and camera, as a slice's fields make them), as new content in a preview would: the tests and
   * `npm run bench:look` measure each setting's effect on the drawn stage this way.
   */
  respec: (
    stage: Element,
    patch: { look?: Partial<SceneLook>; camera?: Partial<SceneCamera> },
  ) => number
}

/**
 * `?debug3d[=flag,flag]`: `motion` plays motion on a software renderer, `main` forces that path;
 * `original` fetches models as uploaded, `tier-low` or `tier-high` that tier's variant (the
 * renderer's own tier stays the measured one); `pick` shows the point of the viewer's model a
 * click lands on, for an editor placing a hotspot (docs/3d-models.md); `preserve` keeps the canvas's
 * last frame readable (WebKit's screenshots read the drawing buffer, which is cleared otherwise).
 */
export function debugFlags(search: string): DebugFlags {
  const params = new URLSearchParams(search)
  const flags = (params.get('debug3d') ?? '').split(',')
  const model = flags.includes('original')
    ? 'original'
    : flags.includes('tier-low')
      ? 'low'
      : flags.includes('tier-high')
        ? 'high'
        : 'tier'
  return {
    hook: params.has('debug3d'),
    motion: flags.includes('motion'),
    main: flags.includes('main'),
    model,
    pick: flags.includes('pick'),
    preserve: flags.includes('preserve'),
  }
}

/**
 * Whether a worker can draw WebGL here, asked once per page of a tiny worker
 * (./webgl-probe.ts says why not on this thread).
 */
let workerAnswer: Promise<boolean> | null = null
const workerCanDraw = () => (workerAnswer ??= askWorker(probeWorker))

/** The workers the page started for each render worker (worker-relay.ts), ended with it. */
const relayed = new WeakMap<Worker, () => void>()

// Its scripts fetched side by side, not one after another (worker-scripts.ts).
const createRenderWorker = () => {
  const worker = startWorker(
    () => new Worker(new URL('./render/render.worker.ts', import.meta.url), { type: 'module' }),
  )
  relayed.set(worker, serveSpawns(worker))
  return worker
}

/** Ends a render worker and the workers the page started for it. */
const endRenderWorker = (worker: Worker) => {
  worker.terminate()
  relayed.get(worker)?.()
}

/**
 * The renderer's worker started before the page has a canvas for it (`warmUp`), with what it
 * said meanwhile, until the bridge takes it (`startRendererOn`). Once taken, no other is warmed
 * while the host is there.
 */
const early: { worker: Worker | null; failed: boolean; taken: boolean; said: FromRenderer[] } = {
  worker: null,
  failed: false,
  taken: false,
  said: [],
}

/**
 * Starts the 3D's slow part before the visitor engages, off the page's main thread, as the slots
 * named come near the screen (ThreeSlot.tsx calls this at idle, once the page has loaded): the
 * probe worker's answer, then, where a worker can draw, the renderer's worker, which fetches and
 * compiles its code, times the GPU on a throwaway context and fetches each model's variant for
 * that tier (`warm`, protocol.ts). What is left for the engagement is the canvas's context, the
 * scenes and the first frame. The page's own thread only creates the workers and posts a message.
 * Nothing happens where the renderer would run on the main thread (`?debug3d=main`, or no worker
 * that can draw): there the tier needs the canvas's context, which the page makes on engagement.
 */
export async function warmUp(specs: SceneSpec[]): Promise<void> {
  const flags = debugFlags(window.location.search)
  if (flags.main || early.taken || !(await workerPath(workerCanDraw))) return
  // The visitor may have engaged while the probe worker answered: the bridge has its worker.
  if (early.taken) return
  if (!early.worker) {
    const worker = (early.worker = createRenderWorker())
    worker.onmessage = (event: MessageEvent<FromRenderer>) => early.said.push(event.data)
    worker.onerror = (event) => {
      event.preventDefault()
      early.failed = true
    }
  }
  const models = specs.flatMap((spec) =>
    spec.kind === 'procedural' ? [] : [new URL(spec.url, document.baseURI).href],
  )
  early.worker.postMessage({
    type: 'warm',
    debug: flags,
    base: document.baseURI,
    models,
    procedural: specs.some((spec) => spec.kind === 'procedural'),
  } satisfies ToRenderer)
}

/** The warmed worker and what it said, for the bridge; null when none is (or it failed). */
function takeWarmWorker(): { worker: Worker; said: FromRenderer[] } | null {
  early.taken = true
  const { worker, failed, said } = early
  early.worker = null
  if (!worker) return null
  if (failed) {
    endRenderWorker(worker)
    return null
  }
  return { worker, said: said.splice(0) }
}

const rectOf = (element: Element): Rect => {
  const { left, top, width, height } = element.getBoundingClientRect()
  return { left, top, width, height }
}

/**
 * The slots as the renderer needs them, less their rectangles: plain data, model URLs made
 * absolute for the worker.
 */
function sceneSlots(): Omit<SceneSlot, 'rect'>[] {
  return threeStore.slots().map((slot) => ({
    id: slot.id,
    spec:
      slot.spec.kind === 'procedural'
        ? slot.spec
        : { ...slot.spec, url: new URL(slot.spec.url, document.baseURI).href },
    reducedMotion: slot.reducedMotion,
    paused: slot.paused,
    visible: slot.visible,
  }))
}

/** Resolves in a later task, so the browser may handle input and paint before what follows. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve))

/** Starts the renderer on `path` and returns a function that sends it a message. */
function startRendererOn(
  path: 'worker' | 'main',
  canvas: HTMLCanvasElement,
  init: Extract<ToRenderer, { type: 'init' }>,
  receive: (message: FromRenderer) => void,
): { send: (message: ToRenderer) => void; stop: () => void } {
  if (path === 'worker') {
    const warmed = takeWarmWorker()
    const worker = warmed?.worker ?? createRenderWorker()
    let ready = false
    worker.onmessage = (event: MessageEvent<FromRenderer>) => {
      ready ||= event.data.type === 'ready'
      receive(event.data)
    }
    // Before its renderer is up, a worker that fails (a script it cannot load, say) sends the page
    // to the main-thread path; later, one scene's error is that scene's (it reports `error`).
    worker.onerror = (event) => {
      if (ready) return
      event.preventDefault()
      receive({ type: 'unsupported', reason: `the 3D worker failed: ${event.message}` })
    }
    // What the warmed worker said before the bridge was here (a policy violation, say).
    for (const message of warmed?.said ?? []) receive(message)
    const offscreen = canvas.transferControlToOffscreen()
    worker.postMessage({ ...init, canvas: offscreen }, [offscreen])
    return { send: (message) => worker.postMessage(message), stop: () => endRenderWorker(worker) }
  }
  // The main-thread path: the renderer module, and the first messages queued until it is here.
  // Evaluating three.js, then R3F and drei, then the renderer, are tasks of their own:
  // each is tens of milliseconds, and input is handled in between.
  let deliver: ((message: ToRenderer) => void) | null = null
  let stopped = false
  const queue: ToRenderer[] = []
  import('three')
    .then(nextTask)
    .then(() => import('@react-three/fiber'))
    .then(nextTask)
    // startRenderer makes its context in a task of its own.
    .then(() => import('./render/renderer'))
    .then(
      ({ startRenderer }) => {
        if (stopped) return
        deliver = startRenderer(canvas, init, receive)
        for (const message of queue.splice(0)) deliver(message)
      },
      (error: unknown) => receive({ type: 'unsupported', reason: String(error) }),
    )
  return {
    send: (message) => (deliver ? deliver(message) : queue.push(message)),
    stop: () => {
      stopped = true
      deliver?.({ type: 'dispose' })
    },
  }
}

/**
 * Connects the page to a renderer on `canvas`: forwards slots, rectangles, tab visibility and the
 * viewer's input; applies what the renderer reports to the slots. Returns the disconnect.
 */
function connect(
  layer: HTMLElement,
  path: 'worker' | 'main',
  flags: DebugFlags,
  fallBack: (reason: string) => void,
): () => void {
  // A canvas of its own each time: one handed to a worker can never be drawn on here again.
  const canvas = document.createElement('canvas')
  canvas.style.cssText = 'position:absolute;inset:0;width:100%;height:100%;display:block'
  layer.append(canvas)
  const viewport = (): Viewport => ({
    width: layer.clientWidth,
    height: layer.clientHeight,
    dpr: window.devicePixelRatio || 1,
  })
  let closed = false
  // The pending measure's animation frame, and the number of the last `rects` message sent.
  let frame = 0
  let seq = 0
  /** The slots' specs as the page gave them, before any `respec`. */
  const originals: Record<string, SceneSpec> = {}
  let respecs = 0
  const hook = flags.hook
    ? ((window as unknown as { __facet3d?: DebugHook }).__facet3d = {
        path,
        frames: 0,
        calls: 0,
        triangles: 0,
        dpr: 1,
        deviceDpr: window.devicePixelRatio || 1,
        ceiling: 1,
        tier: 'low',
        probeMs: 0,
        antialias: false,
        seq: 0,
        began: 0,
        models: {},
        orbits: {},
        revisions: {},
        sent: 0,
        sentAt: new Map(),
        drawn: [] as DebugHook['drawn'],
        loseContext: () => renderer.send({ type: 'lose-context' }),
        restoreContext: () => renderer.send({ type: 'restore-context' }),
        respec: (stage, patch) => {
          const slot = threeStore.slots().find((entry) => entry.element === stage)
          if (!slot) throw new Error('respec: no 3D slot there')
          // Always over the slice's own: each call is a setting, not an edit of the last one.
          const spec = (originals[slot.id] ??= slot.spec)
          if (spec.kind === 'procedural') throw new Error('respec: a procedural scene has no look')
          const revision = ++respecs
          threeStore.update(slot.id, {
            spec: {
              ...spec,
              look: { ...spec.look, ...patch.look },
              camera: { ...spec.camera, ...patch.camera },
              revision,
            },
          })
          return revision
        },
      })
    : null

  const receive = (message: FromRenderer) => {
    if (closed) return
    switch (message.type) {
      case 'ready':
      case 'spawn': // worker-relay.ts answers it
        return
      case 'unsupported':
        return fallBack(message.reason)
      case 'live':
        // Drawn where the slots were when the page last measured them: the posters may go.
        // Drawn with older rectangles: the renderer has the newer ones (with these slots still
        // waiting in them) and will say so again once it has drawn with them.
        if (message.seq !== seq) return
        for (const id of message.ids) threeStore.update(id, { status: 'live' })
        return
      case 'progress':
        return threeStore.update(message.id, { progress: message.progress })
      case 'error': {
        // One line that names the file and the reason, for the editor or developer who looks.
        const spec = threeStore.get(message.id)?.spec
        const what = spec && spec.kind !== 'procedural' ? `the model ${spec.url}` : 'a scene'
        console.error(`3D: ${what} cannot be drawn: ${message.message}`)
        return threeStore.update(message.id, { status: 'error' })
      }
      case 'warning':
        console.warn(`3D: ${message.message}`)
        return
      case 'violation':
        console.error(
          `3D worker: Content Security Policy refused ${message.violation.blockedURI || 'inline'} (${message.violation.violatedDirective})`,
        )
        document.dispatchEvent(
          new SecurityPolicyViolationEvent('securitypolicyviolation', {
            ...message.violation,
            documentURI: document.URL,
            referrer: document.referrer,
          }),
        )
        return
      case 'lost':
        return threeStore.setAll('lost')
      case 'restored':
        return threeStore.setAll('loading')
      case 'picked': {
        // For an editor placing a hotspot (docs/3d-models.md): the values as the slice's fields
        // take them. A debugging aid, in the developers' language, like the console's lines.
        const readout = threeStore
          .get(message.id)
          ?.element.parentElement?.querySelector('[data-3d-picked]')
        if (readout)
          readout.textContent = message.point
            ? `Position ${message.point.position.join(' ')} · Normal ${message.point.normal.join(' ')}`
            : 'No part of the model under that click.'
        return
      }
      case 'story-view':
        return showStoryView(threeStore.get(message.id), message.fields)
      case 'moves':
        return threeStore.update(message.id, { moves: message.moves })
      case 'variants':
        return threeStore.update(message.id, { variants: message.names })
      case 'variant':
        return threeStore.update(message.id, { variant: message.name })
      case 'hotspots':
        // The buttons move now: on the main-thread path, in the frame that drew the model.
        return placeHotspots(message.id, message.places)
      case 'stats': {
        if (!hook) return
        const { type: _type, ...stats } = message
        Object.assign(hook, stats)
        hook.drawn.push({ seq: stats.seq, began: stats.began })
        if (hook.drawn.length > 1000) hook.drawn.shift()
      }
    }
  }

  const renderer = startRendererOn(
    path,
    canvas,
    {
      type: 'init',
      viewport: viewport(),
      hidden: document.visibilityState === 'hidden',
      debug: flags,
      base: document.baseURI,
    },
    receive,
  )

  // The rest (the observers, the listeners, the slots' first description and measure) in a later
  // task: the canvas, its transfer and React's commit before them are enough for one. Traced at 4×
  // CPU, all of it in the effect's task was 60–90 ms of the page's thread: the layout the first
  // measure forces, the media query for the pixel ratio, the listeners.
  let stopListening = () => {}
  void nextTask().then(() => {
    if (closed) return
    // Rectangles: after every scroll (of the page or of any container: capture), resize or layout
    // change, measured once per animation frame.
    const measure = () => {
      frame = 0
      const rects: Record<string, Rect> = {}
      const scroll: Record<string, number> = {}
      const waiting: string[] = []
      for (const slot of threeStore.slots()) {
        rects[slot.id] = rectOf(slot.element)
        if (slot.scroll) scroll[slot.id] = slot.scroll()
        if (slot.status !== 'live') waiting.push(slot.id)
      }
      renderer.send({ type: 'rects', rects, scroll, viewport: viewport(), seq: ++seq, waiting })
      if (hook) {
        hook.sent = seq
        hook.sentAt.set(seq, performance.timeOrigin + performance.now())
        hook.sentAt.delete(seq - 1000)
      }
    }
    const remeasure = () => {
      if (!frame) frame = requestAnimationFrame(measure)
    }
    const resizes = new ResizeObserver(remeasure)
    resizes.observe(document.body)
    resizes.observe(layer)

    // Slots: their scenes, visibility and motion preference; a viewer's input.
    const viewers = new Map<string, () => void>()
    const observed = new WeakSet<Element>()
    let described = ''
    const syncSlots = () => {
      // Every change of the store comes here (a slot's progress, its status): the slots are sent
      // only when they changed, and only then measured (a rectangle read after React's commit is a
      // layout of the page, 20 ms and more at 4× CPU, in the same task).
      const slots = sceneSlots()
      const key = JSON.stringify(slots)
      if (key !== described) {
        described = key
        const measured = slots.map((slot) => ({
          ...slot,
          rect: rectOf(threeStore.get(slot.id)!.element),
        }))
        renderer.send({ type: 'slots', slots: measured })
      }
      for (const slot of threeStore.slots()) {
        // A stage that changes size (its own layout, not the page's) is measured again too.
        if (!observed.has(slot.element)) {
          observed.add(slot.element)
          resizes.observe(slot.element)
        }
        // A viewer's gestures; a story's only for an editor (a preview: "copy this view").
        const story = slot.spec.kind === 'model' && !!slot.spec.story?.length
        if (slot.command || (slot.spec.kind !== 'viewer' && !(story && flags.pick))) continue
        const command = (c: ViewCommand) =>
          renderer.send({ type: 'command', id: slot.id, command: c })
        viewers.set(
          slot.id,
          story ? wireStoryEditor(slot, command) : wireViewer(slot, command, flags.pick),
        )
        threeStore.update(slot.id, { command })
      }
      for (const [id, unwire] of viewers)
        if (!threeStore.get(id)) {
          unwire()
          viewers.delete(id)
        }
    }
    syncSlots()
    const unsubscribe = threeStore.subscribe(syncSlots)

    // A change of the display's pixel ratio without a resize (a window moved to another screen):
    // a media query for the current ratio stops matching; the next rectangles carry the new one.
    let unwatchDpr = () => {}
    const watchDpr = () => {
      const query = window.matchMedia?.(`(resolution: ${window.devicePixelRatio || 1}dppx)`)
      if (!query) return
      const onChange = () => {
        remeasure()
        watchDpr()
      }
      query.addEventListener('change', onChange, { once: true })
      unwatchDpr = () => query.removeEventListener('change', onChange)
    }
    watchDpr()

    const onVisibility = () =>
      renderer.send({ type: 'hidden', hidden: document.visibilityState === 'hidden' })
    const options = { passive: true, capture: true }
    window.addEventListener('scroll', remeasure, options)
    window.addEventListener('resize', remeasure)
    document.addEventListener('visibilitychange', onVisibility)

    stopListening = () => {
      unsubscribe()
      cancelAnimationFrame(frame)
      resizes.disconnect()
      unwatchDpr()
      window.removeEventListener('scroll', remeasure, options)
      window.removeEventListener('resize', remeasure)
      document.removeEventListener('visibilitychange', onVisibility)
      for (const [id, unwire] of viewers) {
        unwire()
        threeStore.update(id, { command: undefined })
      }
    }
  })

  return () => {
    closed = true
    stopListening()
    renderer.stop()
    canvas.remove()
  }
}

/**
 * The layer of the page's one canvas, and its bridge to the renderer. It tries the worker path
 * first, where the probe worker says a worker can draw; when the worker reports that it cannot draw, a fresh canvas gets the main-thread
 * renderer; when that cannot either (or no canvas gives WebGL at all), every slot keeps its
 * poster.
 */
export default function CanvasHost() {
  const [flags] = useState(() => {
    const flags = debugFlags(window.location.search)
    // An editor previewing a document (the preview route sets Prismic's cookie) finds a hotspot's
    // position by clicking the model, as with `?debug3d=pick` (docs/3d-models.md).
    const preview = document.cookie
      .split('; ')
      .some((pair) => pair.startsWith(`${PREVIEW_COOKIE}=`))
    return preview ? { ...flags, pick: true } : flags
  })
  // null while the probe worker is asked where the renderer can run.
  const [path, setPath] = useState<RenderPath | null>(null)
  const layerRef = useRef<HTMLDivElement>(null)

  // Gone with the page's last slot (a client-side navigation): the next page's slots may warm a
  // worker up again.
  useEffect(
    () => () => {
      early.taken = false
    },
    [],
  )

  useEffect(() => {
    let asking = true
    void firstPath(flags.main, workerCanDraw).then((first) => asking && setPath(first))
    return () => {
      asking = false
    }
  }, [flags])

  useEffect(() => {
    if (path === null) return
    if (path === 'off') {
      // No renderer can draw here: every slot keeps its poster, with its description.
      const settle = () => {
        for (const slot of threeStore.slots())
          if (slot.status !== 'unsupported') threeStore.update(slot.id, { status: 'unsupported' })
      }
      settle()
      return threeStore.subscribe(settle)
    }
    const layer = layerRef.current
    if (!layer) return
    return connect(layer, path, flags, (reason) => {
      console.warn(`3D: the ${path} renderer cannot draw here (${reason}).`)
      setPath(path === 'worker' ? mainOrOff() : 'off')
    })
  }, [path, flags])

  if (path === null || path === 'off') return null
  return (
    <>
      <ViewerOverlays />
      <div
        ref={layerRef}
        aria-hidden="true"
        style={{
          position: 'fixed',
          inset: 0,
          pointerEvents: 'none',
          zIndex: 'var(--facet-3d-layer, 1)' as unknown as number,
        }}
      />
    </>
  )
}
