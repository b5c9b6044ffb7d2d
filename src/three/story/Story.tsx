'use client'

import { useCallback, useEffect, useRef, type ReactNode } from 'react'
import ThreeSlot, { type ThreeSlotProps } from '../ThreeSlot'
import { between, mixColour, storyProgress } from '@rules/story'

/** Whether the visitor asked for reduced motion; one query, kept (it is read every frame). */
let reduced: MediaQueryList | null = null
const stillsOnly = () => (reduced ??= window.matchMedia('(prefers-reduced-motion: reduce)')).matches

/** Props for `Story`. */
export type StoryProps = {
  slot: Omit<ThreeSlotProps, 'children' | 'scroll'>
  /** Each step's stage colour (null: the page's). */
  backgrounds: (string | null)[]
  /** Each step's still (its image, or the poster), rendered on the server: the first shows first. */
  stills: ReactNode[]
  /** The steps, rendered on the server: each an element with `data-story-step`. */
  children: ReactNode
}

/**
 * A story told by scroll: a stage pinned beside (or, on a narrow screen, above) its steps while
 * they scroll past. Where the visitor is in the steps (`storyProgress`) drives the live scene,
 * read by the canvas host with the stage's rectangle each frame (ThreeSlot's `scroll`), and, here,
 * the stage's colour and which still shows: without WebGL, with Save-Data, before the 3D is live
 * and where it cannot load, each step shows its still beside its text.
 */
export function Story({ slot, backgrounds, stills, children }: StoryProps) {
  const root = useRef<HTMLDivElement>(null)
  const stage = useRef<HTMLDivElement>(null)

  // Where the visitor is: the steps' middles against the middle of the band they scroll through
  // (the window's, or, under a stage pinned above them, the part of the window below it).
  const place = useCallback(() => {
    const element = root.current
    const pinned = stage.current
    if (!element || !pinned) return 0
    const middles = [...element.querySelectorAll<HTMLElement>('[data-story-step]')].map((step) => {
      const { top, height } = step.getBoundingClientRect()
      return top + height / 2
    })
    const box = pinned.getBoundingClientRect()
    const above = box.width > window.innerWidth * 0.7
    const line = above ? (Math.max(0, box.bottom) + window.innerHeight) / 2 : window.innerHeight / 2
    return storyProgress(middles, line, stillsOnly())
  }, [])

  useEffect(() => {
    const element = root.current
    const pinned = stage.current
    if (!element || !pinned) return
    let frame = 0
    let shown = -1
    const follow = () => {
      frame = 0
      const progress = place()
      const { from, to, t } = between(backgrounds.length, progress)
      pinned.style.background =
        mixColour(backgrounds[from] ?? null, backgrounds[to] ?? null, t) ?? ''
      const step = Math.round(progress)
      if (step === shown) return
      shown = step
      element.dataset.storyAt = String(step)
      element.querySelectorAll<HTMLElement>('[data-story-still]').forEach((still, i) => {
        still.hidden = i !== step
      })
    }
    const later = () => {
      if (!frame) frame = requestAnimationFrame(follow)
    }
    follow()
    window.addEventListener('scroll', later, { passive: true })
    window.addEventListener('resize', later)
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('scroll', later)
      window.removeEventListener('resize', later)
    }
  }, [place, backgrounds])

  return (
    <div ref={root} className="story" data-story="" data-story-at="0">
      <div ref={stage} className="story-stage" style={{ background: backgrounds[0] ?? undefined }}>
        <ThreeSlot {...slot} scroll={place}>
          {stills.map((still, i) => (
            <div key={i} className="story-still" data-story-still={i} hidden={i > 0}>
              {still}
            </div>
          ))}
        </ThreeSlot>
      </div>
      <div className="story-steps">{children}</div>
    </div>
  )
}
