'use client'

// The pause and play button of a 3D section whose scene moves by itself (WCAG 2.2.2): its name
// says what a press does ("Pause the motion", then "Play the motion"), and the choice holds for
// every 3D on this page and the next ones (motion.ts). In the slot's chunk; shown once the scene
// is live and the renderer says it moves here (none where the renderer holds scenes still).
import { useSyncExternalStore } from 'react'
import { motionPaused, setMotionPaused, subscribeMotion } from './motion'
import { Icon, PAUSE_ICON, PLAY_ICON } from './ViewControls'

/** The visitor's pause, followed (false on the server: the page renders before it knows). */
export function useMotionPaused(): boolean {
  return useSyncExternalStore(subscribeMotion, motionPaused, () => false)
}

export function MotionButton({
  pause,
  play,
  className,
  hidden = false,
}: {
  pause: string
  play: string
  className?: string
  /** Keeps its place, unseen and out of reach (a row that must not move when it shows). */
  hidden?: boolean
}) {
  const paused = useMotionPaused()
  return (
    <button
      type="button"
      className={className}
      aria-label={paused ? play : pause}
      disabled={hidden}
      style={hidden ? { visibility: 'hidden' } : undefined}
      onClick={() => setMotionPaused(!paused)}
      data-3d-motion={paused ? 'paused' : 'playing'}
    >
      <Icon>{paused ? PLAY_ICON : PAUSE_ICON}</Icon>
    </button>
  )
}
