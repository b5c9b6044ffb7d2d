// What the renderer shares with its scenes. Kept apart from renderer.tsx so scenes do not import
// the renderer (no import cycle). Everything here runs where the renderer runs: a Web Worker or,
// on the fallback path, the main thread; so nothing here may touch the DOM.
import { Component, createContext, useContext, type ReactNode } from 'react'
import type { FromRenderer, ModelInfo, SceneSlot } from '../protocol'
import type { ModelChoice } from '../model-variant'
import type { ViewOrbit } from '../store'
import type { SceneStore } from './scene-store'

/** What every scene needs from the renderer. */
type HostState = {
  /** The tab is hidden: nothing animates. */
  hidden: boolean
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
  /** Whether a frame has drawn this slot's scene since it mounted (its first frame is out). */
  drawnOnce: (id: string) => boolean
}
export const HostContext = createContext<HostState | null>(null)

/** The host's state; only scenes inside the renderer may call it. */
export function useHost(): HostState {
  const host = useContext(HostContext)
  if (!host) throw new Error('useHost must be used inside the 3D renderer, which provides it.')
  return host
}

/** Whether this renderer plays motion at all: a GPU, or `?debug3d=motion`. */
export const playsMotion = (host: { tier: 'high' | 'low'; forceMotion: boolean }) =>
  host.tier === 'high' || host.forceMotion

/**
 * Whether this slot's scene may move by itself (scene-hooks.tsx, `useMayAnimate`), for code outside
 * a scene too (the renderer's frame-rate sampling).
 */
export function mayAnimate(
  slot: SceneSlot,
  host: { hidden: boolean; tier: 'high' | 'low'; forceMotion: boolean },
): boolean {
  return slot.visible && !host.hidden && !slot.paused && playsMotion(host)
}

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
