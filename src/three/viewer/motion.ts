// Whether the 3D that moves by itself (a hero's float or spin, a model's turntable or auto-rotate,
// a playing animation) may move: the visitor's choice from any 3D section's pause button, kept for
// the visit (this tab's session storage), on every page. A visitor who asked their system for
// reduced motion starts paused, and may still press play. WCAG 2.2.2 (Pause, Stop, Hide) asks for
// such a control for anything that moves by itself for more than 5 s beside other content; the
// reduced-motion setting is one most visitors never find.
//
// Page side, in the slot's chunk: no three.js. The slots pass the choice on to the renderer with
// their description (`paused`, protocol.ts).

const KEY = 'facet:3d-motion'
type Choice = 'paused' | 'playing'

const listeners = new Set<() => void>()

function stored(): Choice | null {
  try {
    const value = window.sessionStorage.getItem(KEY)
    return value === 'paused' || value === 'playing' ? value : null
  } catch {
    // Storage refused (a privacy setting): the choice lasts for this page only.
    return remembered
  }
}

/** The choice made on this page when storage is refused. */
let remembered: Choice | null = null

const reduced = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches

/** True when the 3D is paused: the visitor's choice this visit, else their reduced-motion setting. */
export function motionPaused(): boolean {
  const choice = stored()
  return choice ? choice === 'paused' : reduced()
}

/** The visitor pressed pause or play: every 3D on this page and the next ones follows. */
export function setMotionPaused(paused: boolean): void {
  const choice: Choice = paused ? 'paused' : 'playing'
  remembered = choice
  try {
    window.sessionStorage.setItem(KEY, choice)
  } catch {}
  for (const listener of listeners) listener()
}

/**
 * Calls `listener` when the choice changes, here or by the system's setting (when the visitor has
 * not chosen). Returns the unsubscribe.
 */
export function subscribeMotion(listener: () => void): () => void {
  listeners.add(listener)
  const query =
    typeof window.matchMedia === 'function'
      ? window.matchMedia('(prefers-reduced-motion: reduce)')
      : null
  query?.addEventListener('change', listener)
  return () => {
    listeners.delete(listener)
    query?.removeEventListener('change', listener)
  }
}
