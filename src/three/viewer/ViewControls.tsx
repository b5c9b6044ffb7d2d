'use client'

// The viewer's buttons under its stage: turn left and right, tilt up and down, zoom in and out,
// and reset, each one click (WCAG 2.5.7, Dragging Movements: every view a drag or a pinch gives
// has a single-pointer way too), each a real button a screen reader reaches in browse mode and a
// keyboard reaches with Tab, named by the slice (words.ts where it wrote none), at least 44 × 44
// CSS px (2.5.8 asks for 24). They send the same commands as the stage's gestures and keys, on
// either renderer path. While one of them has the focus, the arrow keys and + and − do what the
// buttons do (the stage itself takes no focus: in a screen reader's browse mode the arrow keys
// are the reader's, and never reach it).
//
// In the slot's chunk, rendered on the server with the page: they hold their place from the
// first paint, hidden until the model is live, so that nothing moves when it arrives.
import type { KeyboardEvent, ReactNode } from 'react'
import type { ViewCommand } from '../store'
import styles from './controls.module.css'

/** The viewer's words for its buttons, hint and messages (fields.ts merges slice and defaults). */
export type ViewLabels = {
  turnLeft: string
  turnRight: string
  tiltUp: string
  tiltDown: string
  zoomIn: string
  zoomOut: string
  reset: string
  /** Shown over the stage when a plain wheel scrolls the page past it. */
  zoomHint: string
  /** The hint on Apple's keyboards, where it names ⌘. */
  zoomHintMac: string
  /** Heard once the model is live. */
  live: string
  /** Heard when the view is reset. */
  resetDone: string
}

/** One press of a turn (15°), a tilt (10°) or a zoom; a drag left turns the model left. */
export const VIEW_STEPS = {
  turnLeft: { type: 'rotate', azimuth: Math.PI / 12, polar: 0 },
  turnRight: { type: 'rotate', azimuth: -Math.PI / 12, polar: 0 },
  tiltUp: { type: 'rotate', azimuth: 0, polar: Math.PI / 18 },
  tiltDown: { type: 'rotate', azimuth: 0, polar: -Math.PI / 18 },
  zoomIn: { type: 'zoom', factor: 0.85 },
  zoomOut: { type: 'zoom', factor: 1 / 0.85 },
} as const satisfies Record<string, ViewCommand>

type Step = keyof typeof VIEW_STEPS

/** The keys that do what a button does, while a button of the row has the focus. */
const KEYS: Record<string, Step> = {
  ArrowLeft: 'turnLeft',
  ArrowRight: 'turnRight',
  ArrowUp: 'tiltUp',
  ArrowDown: 'tiltDown',
  '+': 'zoomIn',
  '=': 'zoomIn',
  '-': 'zoomOut',
  _: 'zoomOut',
}

/** Each button's picture: a line drawing on a 24 × 24 grid, in the text's colour. */
const ICONS: Record<Step, ReactNode> = {
  turnLeft: <path d="M19 12H5M11 6l-6 6 6 6" />,
  turnRight: <path d="M5 12h14M13 6l6 6-6 6" />,
  tiltUp: <path d="M12 19V5M6 11l6-6 6 6" />,
  tiltDown: <path d="M12 5v14M6 13l6 6 6-6" />,
  zoomIn: <path d="M12 5v14M5 12h14" />,
  zoomOut: <path d="M5 12h14" />,
}

const STEPS = Object.keys(ICONS) as Step[]

/** A line-drawn icon, hidden from screen readers (the button's name says what it does). */
export function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  )
}

/**
 * The row of view buttons. `live`: the model is on screen (before, the row is hidden, its buttons
 * disabled). `after` goes at the row's end (the pause button).
 */
export function ViewControls({
  labels,
  live,
  send,
  onReset,
  after,
}: {
  labels: ViewLabels
  live: boolean
  send: (command: ViewCommand) => void
  onReset: () => void
  after?: ReactNode
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = KEYS[event.key]
    if (!step || !live || !(event.target instanceof HTMLButtonElement)) return
    if (event.ctrlKey || event.metaKey || event.altKey) return
    event.preventDefault()
    send(VIEW_STEPS[step])
  }
  return (
    <div className={styles.row} onKeyDown={onKeyDown} data-3d-controls="">
      <button
        type="button"
        className={styles.reset}
        disabled={!live}
        onClick={onReset}
        data-3d-view="reset"
      >
        {labels.reset}
      </button>
      {STEPS.map((step) => (
        <button
          key={step}
          type="button"
          className={styles.icon}
          aria-label={labels[step]}
          disabled={!live}
          onClick={() => send(VIEW_STEPS[step])}
          data-3d-view={step}
        >
          <Icon>{ICONS[step]}</Icon>
        </button>
      ))}
      {after}
    </div>
  )
}

/** The pause button's pictures: two bars while it moves, a play triangle while paused. */
export const PAUSE_ICON = <path d="M9 5v14M15 5v14" />
export const PLAY_ICON = <path d="M7 4.5v15l12-7.5z" />
