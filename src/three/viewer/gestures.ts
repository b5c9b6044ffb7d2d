// How a live viewer's stage takes the visitor's pointer, touch, pinch and wheel, as view commands
// (the same commands its buttons and keys send), without keeping the page from scrolling past it.
// Part of the canvas host's chunk.
//
// - **Touch.** The stage is `touch-action: pan-y`, as `<model-viewer>`'s is when asked: the
//   browser keeps vertical swipes for the page's scroll, and hands horizontal drags and pinches
//   to the page. Better than that alone: a touch turns the model only once its drag is known to
//   be mostly sideways (`DECIDE_PX` of travel, more across than down), so the few moves a browser
//   delivers before it takes a vertical swipe for the scroll (then sends `pointercancel`) turn
//   nothing. Once turning, the drag tilts the model too. Two fingers pinch to zoom.
// - **Mouse and pen on a desktop.** A drag turns and tilts at once. A plain wheel turn scrolls the
//   page, as it does everywhere else on it, and shows the hint (`[data-3d-zoom-hint]`, in the
//   slice's words) for `HINT_MS`, as maps do; Ctrl or ⌘ with the wheel zooms (a trackpad's pinch
//   sends the wheel with Ctrl).
//
// Scales are three's OrbitControls': a drag across the stage's height turns the model a full
// circle; each wheel notch of 100 zooms by 0.95.
import { threeStore, type SlotEntry, type ViewCommand } from '../store'

/** A touch's travel before the page decides whether it is the page's scroll or a turn. */
const DECIDE_PX = 10
/** How long the wheel's hint stays after the last plain wheel turn over the stage. */
export const HINT_MS = 1500

const isLive = (id: string) => threeStore.get(id)?.status === 'live'

/** Apple's keyboards: the hint names ⌘ rather than Ctrl (where the slice wrote no hint). */
const onMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

type Pointer = {
  x: number
  y: number
  /** Where a touch or pen went down, until its drag is decided. */
  from: { x: number; y: number } | null
  /** A touch or pen that the page's scroll did not take: it turns the model. */
  turning: boolean
}

/**
 * Wires the viewer's stage to `command`; returns the unwiring. With `pick` (`?debug3d=pick`, or a
 * preview), a click that does not turn the model asks for the point under it, shown in a line
 * under the slot.
 */
export function wireViewer(
  slot: SlotEntry,
  command: (c: ViewCommand) => void,
  pick: boolean,
): () => void {
  const element = slot.element
  const pointers = new Map<number, Pointer>()
  // Where each pointer went down, to tell a click (a pick) from a drag; and the line under the slot
  // that shows the point (made here, in the host's chunk, so the page carries nothing of it).
  const downs = new Map<number, { x: number; y: number }>()
  const readout = pick ? document.createElement('output') : null
  if (readout) {
    readout.dataset['3dPicked'] = ''
    readout.style.cssText = 'display:block;margin-top:0.5rem;font-size:0.875rem'
    readout.textContent = 'Click the model: its point shows here, ready to paste into a hotspot.'
    element.parentElement?.append(readout)
  }
  const hint = element.parentElement?.querySelector<HTMLElement>('[data-3d-zoom-hint]') ?? null
  let hintTimer: ReturnType<typeof setTimeout> | undefined

  const spread = () => {
    const [a, b] = [...pointers.values()]
    return Math.hypot(a!.x - b!.x, a!.y - b!.y)
  }
  const onDown = (event: PointerEvent) => {
    if (!isLive(slot.id)) return
    // A pointer the browser no longer knows (released as it went down, or made by a script)
    // cannot be captured: the drag still follows it over the stage.
    try {
      element.setPointerCapture?.(event.pointerId)
    } catch {}
    const at = { x: event.clientX, y: event.clientY }
    const mouse = event.pointerType === 'mouse'
    pointers.set(event.pointerId, { ...at, from: mouse ? null : at, turning: mouse })
    downs.set(event.pointerId, at)
  }
  const onMove = (event: PointerEvent) => {
    const last = pointers.get(event.pointerId)
    if (!last) return
    const before = pointers.size === 2 ? spread() : 0
    const now = { x: event.clientX, y: event.clientY }
    if (pointers.size === 2) {
      pointers.set(event.pointerId, { ...last, ...now })
      const after = spread()
      if (before > 0 && after > 0) command({ type: 'zoom', factor: before / after })
      return
    }
    if (!last.turning && last.from) {
      // Undecided: a sideways drag turns from where it went down; a vertical one is the page's
      // (the browser's scroll takes it, and cancels this pointer).
      const dx = now.x - last.from.x
      const dy = now.y - last.from.y
      if (Math.hypot(dx, dy) < DECIDE_PX) return
      if (Math.abs(dx) <= Math.abs(dy)) {
        pointers.delete(event.pointerId)
        return
      }
      last.turning = true
      last.x = last.from.x
      last.y = last.from.y
    }
    const height = Math.max(1, element.clientHeight)
    command({
      type: 'rotate',
      azimuth: (-2 * Math.PI * (now.x - last.x)) / height,
      polar: (-2 * Math.PI * (now.y - last.y)) / height,
    })
    pointers.set(event.pointerId, { ...last, ...now })
  }
  const onUp = (event: PointerEvent) => {
    pointers.delete(event.pointerId)
    const down = downs.get(event.pointerId)
    downs.delete(event.pointerId)
    // A click that did not turn the model (moved under 4 px): the point under it.
    if (!pick || !down || event.type !== 'pointerup') return
    if (Math.hypot(event.clientX - down.x, event.clientY - down.y) >= 4) return
    const box = element.getBoundingClientRect()
    command({
      type: 'pick',
      x: ((event.clientX - box.left) / Math.max(1, box.width)) * 2 - 1,
      y: 1 - ((event.clientY - box.top) / Math.max(1, box.height)) * 2,
    })
  }
  const showHint = () => {
    if (!hint) return
    const mac = hint.dataset['mac']
    if (mac && onMac()) hint.textContent = mac
    hint.dataset['shown'] = ''
    clearTimeout(hintTimer)
    hintTimer = setTimeout(() => delete hint.dataset['shown'], HINT_MS)
  }
  const onWheel = (event: WheelEvent) => {
    if (!isLive(slot.id)) return
    // A plain wheel is the page's: it scrolls on, and the hint says how to zoom.
    if (!event.ctrlKey && !event.metaKey) return showHint()
    event.preventDefault()
    if (hint) delete hint.dataset['shown']
    command({ type: 'zoom', factor: 0.95 ** (-event.deltaY * 0.01) })
  }
  element.style.touchAction = 'pan-y'
  element.addEventListener('pointerdown', onDown)
  element.addEventListener('pointermove', onMove)
  element.addEventListener('pointerup', onUp)
  element.addEventListener('pointercancel', onUp)
  // Not passive: Ctrl or ⌘ with the wheel zooms the model, not the page. Only the first event of
  // a wheel's scroll can hold the scroll back, and a plain one never does.
  element.addEventListener('wheel', onWheel, { passive: false })
  return () => {
    readout?.remove()
    clearTimeout(hintTimer)
    if (hint) delete hint.dataset['shown']
    element.style.touchAction = ''
    element.removeEventListener('pointerdown', onDown)
    element.removeEventListener('pointermove', onMove)
    element.removeEventListener('pointerup', onUp)
    element.removeEventListener('pointercancel', onUp)
    element.removeEventListener('wheel', onWheel)
  }
}
