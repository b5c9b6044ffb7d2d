// The seam between the page's slots (small, always loaded) and the canvas host (three.js, loaded
// later). It holds no three.js code, so importing it costs a page almost nothing. A tiny external
// store is used rather than React context because the host and the slots live in different
// React trees (the host is portalled once into <body>).

import { startTransition, useEffect, useState } from 'react'
import type { SceneCamera, SceneLook } from '@rules/look'
import type { StoryKeyframe } from '@rules/story'

/** What a scene shows. Built on the server from a slice's fields (see `fields.ts`). */
export type SceneSpec =
  | {
      kind: 'procedural'
      shape: 'torus-knot' | 'icosahedron' | 'blob' | 'rings'
      colorPrimary: string
      colorSecondary: string
      material: 'glass' | 'metal' | 'clay'
      motion: 'float' | 'spin' | 'still'
      speed: number
    }
  | ({
      kind: 'model'
      url: string
      background: string | null
      autoRotate: boolean
      /**
       * A story told by scroll (story.ts): its steps' keyframes. The page sends where the visitor
       * is in it with each frame's rectangles (`rects`' `scroll`); nothing here moves by itself.
       */
      story?: StoryKeyframe[]
    } & Animation &
      ArtDirection)
  | ({
      kind: 'viewer'
      url: string
      autoRotate: boolean
      /** Its hotspots, pinned on the model as the page's own buttons (none: no buttons). */
      hotspots?: SceneHotspot[]
      /** The name of its model's row of material variants, for screen readers (the slice's). */
      variantsLabel?: string
      /** The editor's labels for its model's variants, by the model's names for them. */
      variantLabels?: Record<string, string>
    } & Animation &
      ArtDirection)

/** The light, shadow and camera an editor chose for a model (look.ts). */
export type ArtDirection = {
  look: SceneLook
  camera: SceneCamera
  /** `?debug3d`'s `respec` count: the renderer reports it once drawn (CanvasHost.tsx). */
  revision?: number
}

/**
 * A hotspot the viewer pins on its model: what the editor wrote in the slice, parsed
 * (rules/hotspots.ts). The renderer projects `position` and `normal` (the model's own
 * coordinates) to the stage each frame; the page draws the button there.
 */
export type SceneHotspot = {
  /** The button's accessible name. */
  label: string
  /** The id of the hotspot's detail in the list under the viewer: the button's description. */
  detailId: string
  position: [number, number, number]
  normal: [number, number, number]
  /** The orbit the camera turns to when the hotspot opens (angles in radians), or none. */
  view: ViewOrbit | null
}

/** A camera orbit around the model: azimuth from the front (+z) toward +x, polar from above. */
export type ViewOrbit = { azimuth: number; polar: number; distance: number | null }

/** A model's own animation: whether it plays, and which clip (null: the first). */
export type Animation = { animate: boolean; clip: string | null }

/** Where a slot is: `poster` until 3D is asked for, then `loading`, `live` once drawn. */
export type SlotStatus = 'poster' | 'ask' | 'loading' | 'live' | 'error' | 'lost' | 'unsupported'

/** A command the visitor sends to a viewer from its buttons, keys, pointer, wheel or touch. */
export type ViewCommand =
  | { type: 'rotate'; azimuth: number; polar: number }
  | { type: 'zoom'; factor: number }
  | { type: 'reset' }
  /**
   * `?debug3d=pick`: the point of the model under a click, at `x`, `y` in the stage (-1 to 1,
   * y up, as three's normalized device coordinates). The renderer answers with `picked`.
   */
  | { type: 'pick'; x: number; y: number }
  /** A hotspot opened: turn to its view (at once with reduced motion or on a software renderer). */
  | ({ type: 'view' } & ViewOrbit)
  /** The model's materials: one of its KHR_materials_variants by name, or its own (null). */
  | { type: 'variant'; name: string | null }
  /**
   * A story in a preview: the camera values of what the stage shows now, the editor's turn
   * included. The renderer answers with `story-view`.
   */
  | { type: 'read-view' }

/** A point on a model in its own coordinates (metres) and the surface's normal there. */
export type PickedPoint = { position: [number, number, number]; normal: [number, number, number] }

/** One slot registered with the host. */
export type SlotEntry = {
  id: string
  element: HTMLElement
  spec: SceneSpec
  reducedMotion: boolean
  /** The visitor's pause (viewer/motion.ts): nothing moves by itself. */
  paused: boolean
  visible: boolean
  status: SlotStatus
  /** Fraction of the model downloaded, or null when unknown. */
  progress: number | null
  /** Set by the host's viewer; the slot calls it for keyboard and button commands. */
  command?: (command: ViewCommand) => void
  /** Says `text` in the slot's live region (it is on the page from the first paint). */
  announce?: (text: string) => void
  /** Whether the scene moves by itself, as the renderer says (then the slot offers a pause). */
  moves?: boolean
  /** A story's place now (story.ts, `storyProgress`), read with the stage's rectangle. */
  scroll?: () => number
  /** A viewer's model's material variants (KHR_materials_variants), once it is loaded. */
  variants?: string[]
  /** The variant on screen (null: the model's own materials). */
  variant?: string | null
}

type Listener = () => void

const slots = new Map<string, SlotEntry>()
const listeners = new Set<Listener>()
let hostWanted = false
let version = 0

function emit() {
  version++
  for (const listener of listeners) listener()
}

/** The store's API. Both sides use it; the host subscribes to every change. */
export const threeStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /** A number that changes on every update: a component that shows every slot follows it. */
  version: () => version,
  slots: (): SlotEntry[] => [...slots.values()],
  get: (id: string): SlotEntry | undefined => slots.get(id),
  /** True once any slot wants live 3D: the first such slot then mounts the host. */
  hostWanted: () => hostWanted,
  /** The slot that renders the host: the first one registered. */
  ownerId: (): string | undefined => slots.keys().next().value,

  register(entry: Omit<SlotEntry, 'status' | 'progress'>) {
    slots.set(entry.id, { ...entry, status: 'loading', progress: null })
    hostWanted = true
    emit()
  },
  unregister(id: string) {
    if (slots.delete(id)) emit()
  },
  update(id: string, patch: Partial<SlotEntry>) {
    const slot = slots.get(id)
    if (!slot) return
    const changed = (Object.keys(patch) as (keyof SlotEntry)[]).some((k) => slot[k] !== patch[k])
    if (!changed) return
    Object.assign(slot, patch)
    emit()
  },
  /** Sets every registered slot's status (context lost, WebGL missing). */
  setAll(status: SlotStatus) {
    for (const slot of slots.values()) slot.status = status
    emit()
  },
}

/**
 * What `read` finds in the store, followed in a transition: read at once on every change, but
 * rendered by React in slices, so the browser paints and answers input between them.
 * Not `useSyncExternalStore`, whose updates render at once, in the task that changed the store: the
 * slot's registration (an effect), each message from the renderer. Traced at 4× CPU, such renders
 * with the work around them made tasks of 50–90 ms on the page's thread.
 *
 * `read` and `same` must be stable (module functions, or `useCallback`): a new one subscribes
 * again. `same(previous, next)` keeps the previous value, and skips the render, when nothing the
 * component shows has changed.
 */
export function useStoreInTransition<T>(
  read: () => T,
  initial: T,
  same: (previous: T, next: T) => boolean = Object.is,
): T {
  const [value, setValue] = useState(initial)
  useEffect(() => {
    const follow = () => {
      const next = read()
      startTransition(() => setValue((previous) => (same(previous, next) ? previous : next)))
    }
    follow()
    return threeStore.subscribe(follow)
  }, [read, same])
  return value
}
