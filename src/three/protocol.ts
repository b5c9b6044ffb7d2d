// What the page's bridge (CanvasHost.tsx, main thread, no three.js) and the renderer (a Web Worker,
// or the main thread where a worker cannot draw WebGL) say to each other. Plain data only: every
// message crosses postMessage's structured clone (the worker's canvas is transferred once, in
// `init`).
import type { PickedPoint, SceneSpec, ViewCommand, ViewOrbit } from './store'
import type { ModelChoice } from './model-variant'
import type { StoryViewFields } from '@rules/story'

/** A stage's box in CSS pixels, relative to the viewport (getBoundingClientRect's numbers). */
export type Rect = { left: number; top: number; width: number; height: number }

/** One hotspot on its stage: CSS pixels from the stage's top left corner, and whether it shows. */
export type HotspotPlace = { x: number; y: number; shown: boolean }

/** One slot as the renderer sees it. */
export type SceneSlot = {
  id: string
  spec: SceneSpec
  /** The visitor asked for reduced motion: a turn they start (to a hotspot's view) is not animated. */
  reducedMotion: boolean
  /**
   * Nothing moves by itself (a hero's float, a turntable, auto-rotate, an animation): the
   * visitor's pause, or their reduced-motion setting until they press play (viewer/motion.ts).
   */
  paused: boolean
  /** On screen (an IntersectionObserver on the page says so): a hidden slot does not animate. */
  visible: boolean
  rect: Rect
}

/**
 * The `?debug3d` flags: `motion` plays motion on a software renderer; `main` forces that path;
 * `model` is the file a model slot fetches (`original`, `tier-low`, `tier-high`; by default the
 * variant of the renderer's measured tier); `pick` shows the point of the model a click lands on.
 */
export type DebugFlags = {
  hook: boolean
  motion: boolean
  main: boolean
  model: ModelChoice
  /** `pick`: a click on the viewer's model shows the point's position and normal. */
  pick: boolean
  /** `preserve`: the context keeps its drawing buffer, for screenshots that read it (WebKit's). */
  preserve: boolean
}

/** The canvas's size in CSS pixels, and the display's pixel ratio. */
export type Viewport = { width: number; height: number; dpr: number }

/**
 * Sent to a worker before its canvas, as a slot nears the screen (CanvasHost.tsx, `warmUp`): the
 * worker times its GPU on a throwaway context and fetches each model's variant for that tier, so
 * that at `init` only the canvas's context, the scenes and the first frame are left.
 */
export type WarmMessage = {
  type: 'warm'
  debug: DebugFlags
  /** The page's URL (as in `init`). */
  base: string
  /** The model URLs of the slots near the screen, absolute, as the slots will name them. */
  models: string[]
  /** Whether a generated (procedural) scene is among them. */
  procedural: boolean
}

/** From the page to the renderer. */
export type ToRenderer =
  | WarmMessage
  | {
      type: 'init'
      /** The worker's canvas; absent on the main thread, which is handed its canvas directly. */
      canvas?: OffscreenCanvas
      viewport: Viewport
      hidden: boolean
      debug: DebugFlags
      /** The page's URL: model URLs of its origin are asked for as the tier's variant. */
      base: string
    }
  | { type: 'slots'; slots: SceneSlot[] }
  /**
   * `seq` counts these messages, so a frame can say which rectangles it was drawn with.
   * `waiting`: the slots whose posters still show; the renderer says when it has drawn them.
   */
  | {
      type: 'rects'
      rects: Record<string, Rect>
      /** Each story's place (story.ts), measured with its rectangle: the frame draws both. */
      scroll: Record<string, number>
      viewport: Viewport
      seq: number
      waiting: string[]
    }
  | { type: 'hidden'; hidden: boolean }
  | { type: 'command'; id: string; command: ViewCommand }
  /** Debug only (`?debug3d`): lose and restore the context, as a GPU reset would. */
  | { type: 'lose-context' }
  | { type: 'restore-context' }
  /** The page no longer shows 3D: release the context (the main-thread path; a worker is ended). */
  | { type: 'dispose' }

/** A loaded model as the renderer has it (`?debug3d`): what was fetched, and what it holds. */
export type ModelInfo = {
  /** The URL fetched: the tier's variant, or the original. */
  url: string
  /** The file's bytes as the renderer received them (after any content encoding). */
  bytes: number
  /** Triangles in the model's meshes (index or position counts), instances counted. */
  triangles: number
  /** Each distinct texture's size in pixels, as decoded. */
  textures: { width: number; height: number; mimeType?: string }[]
  /** The textures' GPU memory, estimated: mip chains of RGBA8, or a compressed file's levels. */
  gpuTextureBytes: number
}

/** Figures the renderer reports with every frame while `?debug3d` is on. */
export type RenderStats = {
  frames: number
  calls: number
  triangles: number
  /** The renderer's pixel ratio now (adaptive resolution moves it). */
  dpr: number
  /** The display's pixel ratio, as the renderer last heard of it. */
  deviceDpr: number
  /** The highest pixel ratio the renderer may use on this display. */
  ceiling: number
  tier: 'high' | 'low'
  /** The GPU probe's time for one draw (median, ms), which chose the tier. */
  probeMs: number
  /** Whether the canvas's context multisamples (MSAA): in a worker, only on the high tier. */
  antialias: boolean
  /** The last `rects` message this frame was drawn with. */
  seq: number
  /** When this frame began: `performance.timeOrigin + performance.now()`, the page's clock too. */
  began: number
  /** Each model slot's loaded model, by slot id. */
  models: Record<string, ModelInfo>
  /** Each viewer's camera orbit around its model now (angles in radians), by slot id. */
  orbits: Record<string, ViewOrbit>
  /** Each model slot's art direction drawn, as `respec` numbered it (0: the slice's own). */
  revisions: Record<string, number>
}

/** A `securitypolicyviolation` event's fields, as the worker heard it. */
export type Violation = {
  violatedDirective: string
  effectiveDirective: string
  blockedURI: string
  originalPolicy: string
  sourceFile: string
  lineNumber: number
  columnNumber: number
  disposition: 'enforce' | 'report'
  statusCode: number
}

/** From the renderer to the page. */
export type FromRenderer =
  /** The context exists and the first render is under way. */
  | { type: 'ready' }
  /** This renderer cannot draw WebGL here: the page tries the next path, or shows posters. */
  | { type: 'unsupported'; reason: string }
  /**
   * These slots' scenes have reached the screen, drawn with the rectangles of `rects` message
   * `seq`: their posters may fade if the slots have not moved since.
   */
  | { type: 'live'; ids: string[]; seq: number }
  | { type: 'progress'; id: string; progress: number | null }
  /** This slot's scene cannot be drawn (a model that fails to load or parse): the reason. */
  | { type: 'error'; id: string; message: string }
  /** Drawn, but not all as the slice asks (an environment file it cannot read): the reason. */
  | { type: 'warning'; id: string; message: string }
  /** The worker broke the page's Content Security Policy: the page hears it as its own. */
  | { type: 'violation'; violation: Violation }
  | { type: 'lost' }
  | { type: 'restored' }
  | ({ type: 'stats' } & RenderStats)
  /** `?debug3d=pick`: the point a click landed on, in the model's coordinates, or null (missed). */
  | { type: 'picked'; id: string; point: PickedPoint | null }
  /**
   * Where a viewer's hotspots are on its stage in the frame just drawn, in the order of its
   * spec's `hotspots`: sent with each frame that moves one, or changes whether one shows.
   */
  | { type: 'hotspots'; id: string; places: HotspotPlace[] }
  /**
   * Whether this slot's scene moves by itself here (its motion, turntable, auto-rotate or
   * animation, and a renderer that plays motion): the page then offers a pause button.
   */
  | { type: 'moves'; id: string; moves: boolean }
  /**
   * Start a worker for the renderer and join it to `port` (worker-relay.ts): engines whose
   * workers hang starting workers of their own.
   */
  | { type: 'spawn'; url: string; options: WorkerOptions; port: MessagePort }
  /** A story's camera as a step's fields write it (`read-view`): what the stage shows now. */
  | { type: 'story-view'; id: string; fields: StoryViewFields }
  /** A viewer's model is loaded: the names of its material variants (none: an empty list). */
  | { type: 'variants'; id: string; names: string[] }
  /** A frame showing this variant's materials (null: the model's own) has reached the screen. */
  | { type: 'variant'; id: string; name: string | null }
