// The renderer's copy of the page's slots, as the bridge last described them. It lives wherever
// the renderer runs (the worker, or the main thread), so it holds plain data: no DOM element.
import { useSyncExternalStore } from 'react'
import type { Rect, SceneSlot } from '../protocol'
import type { ViewCommand } from '../store'

type Listener = () => void

/**
 * A small external store rather than React state: the bridge's messages arrive outside React,
 * and a slot's rectangle changes on every scroll frame without re-rendering any scene (views
 * read it in their frame callbacks).
 */
export function createSceneStore() {
  let slots = new Map<string, SceneSlot>()
  const commands = new Map<string, (command: ViewCommand) => void>()
  const places = new Map<string, number>()
  const exposures = new Map<string, number>()
  const listeners = new Set<Listener>()
  let version = 0
  const emit = () => {
    version++
    for (const listener of listeners) listener()
  }
  return {
    subscribe(listener: Listener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    version: () => version,
    slots: (): SceneSlot[] => [...slots.values()],
    get: (id: string): SceneSlot | undefined => slots.get(id),
    /** Replaces the slot list; rectangles already known are kept. */
    setSlots(next: SceneSlot[]) {
      slots = new Map(next.map((s) => [s.id, { ...s, rect: slots.get(s.id)?.rect ?? s.rect }]))
      emit()
    },
    /** New rectangles: no re-render (frame callbacks read them). */
    setRects(rects: Record<string, Rect>) {
      for (const [id, rect] of Object.entries(rects)) {
        const slot = slots.get(id)
        if (slot) slot.rect = rect
      }
    },
    /** Each story's place, sent with the rectangles: no re-render (its scene reads it per frame). */
    setScroll(scroll: Record<string, number>) {
      for (const [id, place] of Object.entries(scroll)) places.set(id, place)
    },
    scroll: (id: string): number | undefined => places.get(id),
    /** A story's exposure now (its steps may change it), over its look's. */
    setExposure(id: string, exposure: number | null) {
      if (exposure === null) exposures.delete(id)
      else exposures.set(id, exposure)
    },
    exposure: (id: string): number | undefined => exposures.get(id),
    /** The viewer's handler for keyboard, pointer and reset commands. */
    setCommand(id: string, handler: ((command: ViewCommand) => void) | null) {
      if (handler) commands.set(id, handler)
      else commands.delete(id)
    },
    command(id: string, command: ViewCommand) {
      commands.get(id)?.(command)
    },
  }
}

/** The store's type. */
export type SceneStore = ReturnType<typeof createSceneStore>

/** Re-renders the caller whenever the slot list changes. */
export function useSceneStore(store: SceneStore): number {
  return useSyncExternalStore(store.subscribe, store.version, store.version)
}
/** True when some of `rect` lies on a canvas of `width` × `height` CSS pixels. */
export function onCanvas(rect: Rect, width: number, height: number): boolean {
  return (
    rect.width > 0 &&
    rect.height > 0 &&
    rect.left + rect.width > 0 &&
    rect.top + rect.height > 0 &&
    rect.left < width &&
    rect.top < height
  )
}
