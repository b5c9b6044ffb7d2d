'use client'

// A live viewer's hotspots, drawn as the page's own buttons over its stage (not pixels in the
// canvas): a screen reader gets each as a button named by its label and described by its detail,
// a keyboard reaches each in turn. The renderer projects their points every frame it draws and
// says where they fall and whether each shows (`hotspots`, protocol.ts); the buttons are moved
// here outside React (a style property per button), in the same task the message arrives: on
// the main-thread path that is the frame's own task. A hotspot turned away from the camera or
// hidden behind the model dims and cannot be pressed, but keeps its place in the tab order.
//
// Part of the canvas host's chunk: a page carries none of this until its 3D starts. The words
// come from the list under the viewer (the slice's own HTML): the popover shows a copy of the
// detail, and each button is described by the original.
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import type { HotspotPlace } from '../protocol'
import { threeStore, type SceneHotspot, type SlotEntry } from '../store'
import { spaceHotspots, type Box } from './hotspot-spacing'
import styles from './hotspots.module.css'

/** Each live layer's way to move its buttons, by slot id; and the last places heard. */
const placers = new Map<string, (places: HotspotPlace[]) => void>()
const lastPlaces = new Map<string, HotspotPlace[]>()

/** The renderer's places for a slot's hotspots (CanvasHost.tsx): its buttons move at once. */
export function placeHotspots(id: string, places: HotspotPlace[]): void {
  // A slot gone from the page (a client-side navigation) leaves no places behind.
  for (const known of lastPlaces.keys()) if (!threeStore.get(known)) lastPlaces.delete(known)
  if (!threeStore.get(id)) return
  lastPlaces.set(id, places)
  placers.get(id)?.(places)
}

/** What lies over a stage besides its hotspots, which no hotspot may cover: the AR button, its note. */
const OVER_STAGE = '[data-ar-link], [data-ar-note], [data-ar-error]'
/** Room kept between two hotspot buttons, and between one and what it must not cover. */
const GAP = 4

/**
 * The stage's size and the boxes over it, read from the layout when something changed there (a
 * resize, the AR button's arrival): not each frame, which would read the layout the frame before
 * wrote.
 */
type StageRoom = { width: number; height: number; avoid: Box[]; size: number }

function measureRoom(container: HTMLElement, buttons: (HTMLButtonElement | null)[]): StageRoom {
  const stage = container.getBoundingClientRect()
  const around = container.closest('[data-3d-slot]') ?? container.parentElement
  const avoid = [...(around?.querySelectorAll<HTMLElement>(OVER_STAGE) ?? [])].flatMap((e) => {
    const r = e.getBoundingClientRect()
    return r.width && r.height
      ? [{ x: r.left - stage.left, y: r.top - stage.top, width: r.width, height: r.height }]
      : []
  })
  const size = buttons.find(Boolean)?.offsetWidth || 24
  return { width: stage.width, height: stage.height, avoid, size }
}

/**
 * Moves each button to its place, apart from the others and from what lies over the stage
 * (hotspot-spacing.ts); one that does not show dims and is not pressable.
 */
function applyPlaces(
  buttons: (HTMLButtonElement | null)[],
  places: HotspotPlace[],
  room: StageRoom,
) {
  const spaced = spaceHotspots(places, { ...room, gap: GAP })
  places.forEach((place, i) => {
    const button = buttons[i]
    if (!button) return
    const at = spaced[i]!
    button.style.setProperty('--hotspot-x', `${at.x.toFixed(1)}px`)
    button.style.setProperty('--hotspot-y', `${at.y.toFixed(1)}px`)
    button.dataset['placed'] = ''
    if (place.shown) {
      delete button.dataset['hidden']
      button.removeAttribute('aria-disabled')
    } else {
      button.dataset['hidden'] = ''
      button.setAttribute('aria-disabled', 'true')
    }
  })
}

/** A live viewer's hotspots, over its stage (`container`, the slot's overlay). */
export function HotspotLayer({
  slot,
  hotspots,
  container,
}: {
  slot: SlotEntry
  hotspots: SceneHotspot[]
  container: HTMLElement
}) {
  const [open, setOpen] = useState<number | null>(null)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const dialog = useRef<HTMLDivElement>(null)
  const body = useRef<HTMLDivElement>(null)
  const id = slot.id
  const popoverId = `${hotspots[0]?.detailId ?? id}-open`

  // Moved by the renderer's messages, from the first frame it drew (heard before this mounted).
  // The stage's room is read again only after a change of size or of what lies over it.
  useLayoutEffect(() => {
    let room: StageRoom | null = null
    const stale = () => {
      room = null
      const last = lastPlaces.get(id)
      if (last) place(last)
    }
    const place = (places: HotspotPlace[]) => {
      room ??= measureRoom(container, buttons.current)
      applyPlaces(buttons.current, places, room)
    }
    placers.set(id, place)
    const resized = new ResizeObserver(stale)
    resized.observe(container)
    const around = container.closest('[data-3d-slot]') ?? container.parentElement
    const changed = new MutationObserver(stale)
    if (around) changed.observe(around, { childList: true, subtree: true })
    const last = lastPlaces.get(id)
    if (last) place(last)
    return () => {
      resized.disconnect()
      changed.disconnect()
      if (placers.get(id) === place) placers.delete(id)
    }
  }, [id, container])

  // Opened: the detail's words (a copy of the list's), and the focus, go to the popover.
  useEffect(() => {
    if (open === null) return
    const detail = document.getElementById(hotspots[open]!.detailId)
    body.current?.replaceChildren(...(detail ? [...detail.cloneNode(true).childNodes] : []))
    dialog.current?.focus()
  }, [open, hotspots])

  // A click or a tap anywhere else closes it: on the pointer's release, not as it goes down, so a
  // press slid away before release does nothing (WCAG 2.5.2, Pointer Cancellation).
  useEffect(() => {
    if (open === null) return
    const onClick = (event: MouseEvent) => {
      if (!container.contains(event.target as Node)) setOpen(null)
    }
    document.addEventListener('click', onClick, true)
    return () => document.removeEventListener('click', onClick, true)
  }, [open, container])

  // The focus gone anywhere but the popover or its own button closes it: the popover lies over
  // the stage's top, where it could hide a focused hotspot, the AR button or a finish entirely
  // (WCAG 2.4.11, Focus Not Obscured).
  useEffect(() => {
    if (open === null) return
    const onFocus = (event: FocusEvent) => {
      const target = event.target as Node | null
      if (!target || dialog.current?.contains(target) || buttons.current[open] === target) return
      setOpen(null)
    }
    document.addEventListener('focusin', onFocus)
    return () => document.removeEventListener('focusin', onFocus)
  }, [open])

  const press = (i: number) => {
    const button = buttons.current[i]
    if (button?.getAttribute('aria-disabled') === 'true') return
    if (open === i) {
      setOpen(null)
      return
    }
    setOpen(i)
    const view = hotspots[i]!.view
    // The camera turns to the hotspot's view (the renderer turns at once with reduced motion).
    if (view) threeStore.get(id)?.command?.({ type: 'view', ...view })
  }

  const close = () => {
    if (open === null) return
    const button = buttons.current[open]
    setOpen(null)
    button?.focus()
  }

  const hotspot = open === null ? null : hotspots[open]!
  return createPortal(
    <div
      className={styles.layer}
      data-3d-hotspots=""
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || open === null) return
        event.preventDefault()
        close()
      }}
    >
      {hotspots.map((spot, i) => (
        <button
          key={spot.detailId}
          ref={(element) => {
            buttons.current[i] = element
          }}
          type="button"
          className={styles.hotspot}
          data-hotspot={i}
          aria-label={spot.label}
          aria-describedby={spot.detailId}
          aria-expanded={open === i}
          aria-controls={open === i ? popoverId : undefined}
          onClick={() => press(i)}
        >
          {/* A dot with no text of its own: its name is its label (a visible number not in
              the name would fail WCAG's label in name). */}
          <span className={styles.dot} aria-hidden="true" />
        </button>
      ))}
      {hotspot && (
        <div
          ref={dialog}
          id={popoverId}
          role="dialog"
          aria-labelledby={`${popoverId}-label`}
          tabIndex={-1}
          className={styles.popover}
          data-hotspot-popover=""
        >
          <strong id={`${popoverId}-label`} className={styles.label}>
            {hotspot.label}
          </strong>
          <div ref={body} className={styles.detail} />
        </div>
      )}
    </div>,
    container,
  )
}
