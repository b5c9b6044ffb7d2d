'use client'

import {
  startTransition,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react'
import { createPortal } from 'react-dom'
import {
  threeStore,
  useStoreInTransition,
  type SceneSpec,
  type SlotStatus,
  type ViewCommand,
} from './store'
import styles from './three.module.css'
import controls from './viewer/controls.module.css'
import finishes from './viewer/variants.module.css'
import { mayFetchAhead, savesData, whenEngagedOrQuiet, whenNear } from './when-to-load'
import { motionPaused, subscribeMotion } from './viewer/motion'
import { MotionButton } from './viewer/MotionButton'
import { ViewControls, type ViewLabels } from './viewer/ViewControls'

// The one canvas host: three.js, R3F and drei live in this chunk, fetched only by a page that
// has a 3D slot, and only once a slot nears the screen (to warm the renderer up) or the visitor
// engages or the page has been quiet (when-to-load.ts). One `import()` for both uses: each call
// site of its own would make a chunk of its own, the same code fetched twice.
type HostModule = typeof import('./CanvasHost')
let hostModule: HostModule | null = null
const loadHost = () => import('./CanvasHost').then((module) => (hostModule = module))

/**
 * The host, rendered at once when its chunk is here (warmed up near the screen), else once it
 * arrives. Not `next/dynamic`: its `React.lazy` suspends on first render even for a chunk already
 * loaded, and React holds the reveal of a suspended boundary's content for 300 ms (traced: the
 * host mounted 300 ms after the visitor's scroll with nothing else to do).
 */
/** Whether some of `element` is within the window now. */
function onScreen(element: Element): boolean {
  const { top, bottom, left, right } = element.getBoundingClientRect()
  return bottom > 0 && right > 0 && top < window.innerHeight && left < window.innerWidth
}

function Host() {
  const [module, setModule] = useState(hostModule)
  useEffect(() => {
    if (module) return
    let current = true
    loadHost().then(
      (loaded) => current && setModule(loaded),
      (error: unknown) => {
        // No host, no 3D: every slot keeps its poster, with its description.
        console.warn(`3D: the canvas host could not be loaded (${String(error)}).`)
        if (current) threeStore.setAll('unsupported')
      },
    )
    return () => {
      current = false
    }
  }, [module])
  return module ? createPortal(<module.default />, document.body) : null
}

/** What the store says of a slot, as the slot renders it. */
type SharedState = {
  status: SlotStatus | undefined
  progress: number | null
  ownsHost: boolean
  moves: boolean
}
const NOT_REGISTERED: SharedState = {
  status: undefined,
  progress: null,
  ownsHost: false,
  moves: false,
}
const sameShared = (a: SharedState, b: SharedState) =>
  a.status === b.status &&
  a.progress === b.progress &&
  a.ownsHost === b.ownsHost &&
  a.moves === b.moves

/**
 * Words the slot shows and says: the slice's fields, or the defaults in the page's language where
 * a field is empty (fields.ts, viewer/words.ts).
 */
export type ThreeSlotLabels = {
  /** The Save-Data button (empty: none). */
  load: string
  /** Shown, and heard, when the scene or its model fails to load. */
  error: string
  /** The pause button, while the scene moves by itself. */
  pause: string
  /** The same button while paused. */
  play: string
  /** The progress bar's accessible name (viewer). */
  loading?: string
  /** How to operate the viewer, shown under it; also its stage's accessible description. */
  hint?: string
  /** The viewer's view buttons, wheel hint and messages (viewer only). */
  view?: ViewLabels
}

/** Props for `ThreeSlot`. */
export type ThreeSlotProps = {
  /** The scene, or null when the slice has none (no model chosen): the poster alone. */
  spec: SceneSpec | null
  /** The scene's text description, read by screen readers and shown when 3D is off. */
  description: string
  labels: ThreeSlotLabels
  /** The poster (the LCP image), rendered on the server. */
  children?: ReactNode
  /** A story's place in its steps now (story.ts), read with each frame's rectangles; stable. */
  scroll?: () => number
}

/**
 * A place on the page for a 3D scene: the poster first (the LCP element), cross-faded to the
 * live scene once the shared canvas has drawn it. It falls back to the poster without WebGL, with
 * Save-Data (until asked), after context loss and when the model fails to load.
 */
export default function ThreeSlot({ spec, description, labels, children, scroll }: ThreeSlotProps) {
  const id = useId()
  const stageRef = useRef<HTMLDivElement>(null)
  const [local, setLocal] = useState<SlotStatus>('poster')
  const [wanted, setWanted] = useState(false)
  const isViewer = spec?.kind === 'viewer'

  // What the store says of this slot (its status, its model's progress) and whether it renders
  // the host (the first registered does), followed in a transition (store.ts).
  const readShared = useCallback((): SharedState => {
    const entry = threeStore.get(id)
    return {
      status: entry?.status,
      progress: entry?.progress ?? null,
      ownsHost: threeStore.hostWanted() && threeStore.ownerId() === id,
      moves: entry?.moves ?? false,
    }
  }, [id])
  const shared = useStoreInTransition(readShared, NOT_REGISTERED, sameShared)
  const { progress, ownsHost, moves } = shared
  const status: SlotStatus = shared.status ?? local

  // Decide once, on the client, whether and when to go live. The server cannot know (WebGL,
  // Save-Data), so this state is set after hydration, in an effect.
  useEffect(() => {
    if (!spec) return
    if (typeof WebGLRenderingContext === 'undefined') {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- a client-only fact, see above
      setLocal('unsupported')
      return
    }
    if (savesData()) {
      setLocal('ask')
      return
    }
    return whenEngagedOrQuiet(() => startTransition(() => setWanted(true)))
  }, [spec])

  // Near the screen, before the visitor engages: the renderer's worker starts, times the GPU and
  // fetches the model, off the main thread (CanvasHost.tsx, `warmUp`), so that the engagement
  // finds them done. Not with Save-Data nor on 2G (`mayFetchAhead`), nor without WebGL; not once
  // the 3D is wanted anyway.
  useEffect(() => {
    const element = stageRef.current
    if (!spec || wanted || !element || typeof WebGLRenderingContext === 'undefined') return
    if (!mayFetchAhead()) return
    return whenNear(element, () => {
      void import('./CanvasHost').then(
        ({ warmUp }) => warmUp([spec]),
        () => {},
      )
    })
  }, [spec, wanted])

  // What the slot's live region says (on the page from the first paint, so that a screen reader
  // hears each change: WCAG 4.1.3). `n` makes the same words said twice (a second reset) change
  // the region's text, so they are heard again.
  const [said, setSaid] = useState({ text: '', n: 0 })
  const announce = useCallback((text: string) => setSaid((last) => ({ text, n: last.n + 1 })), [])

  // Register with the host while wanted; the host draws the scene over the stage.
  useEffect(() => {
    const element = stageRef.current
    if (!wanted || !spec || !element) return
    threeStore.register({
      id,
      element,
      spec,
      reducedMotion: window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      paused: motionPaused(),
      // On the screen now, read at once: the observer's first answer comes a frame later, and
      // the renderer prepares the scenes the visitor sees first (renderer.tsx, `useAdmitted`).
      visible: onScreen(element),
      announce,
      scroll,
    })
    const observer = new IntersectionObserver(([entry]) =>
      threeStore.update(id, { visible: entry!.isIntersecting }),
    )
    observer.observe(element)
    // The visitor's pause or play, here or in another section (viewer/motion.ts).
    const unfollow = subscribeMotion(() => threeStore.update(id, { paused: motionPaused() }))
    return () => {
      unfollow()
      observer.disconnect()
      threeStore.unregister(id)
    }
  }, [wanted, spec, id, announce, scroll])

  // Heard: the viewer's model live (once), and any scene's failure (its message, also shown).
  const view = labels.view
  const saidLive = useRef(false)
  useEffect(() => {
    if (status === 'live' && isViewer && view?.live && !saidLive.current) {
      saidLive.current = true
      announce(view.live)
    }
  }, [status, isViewer, view, announce])

  const send = useCallback((command: ViewCommand) => threeStore.get(id)?.command?.(command), [id])
  const reset = () => {
    send({ type: 'reset' })
    if (view?.resetDone) announce(view.resetDone)
  }

  const hintId = `${id}-hint`
  const live = status === 'live'
  const fallback = status === 'unsupported' || status === 'error'
  const fallbackDescription =
    fallback && description ? <p className={styles.description}>{description}</p> : null
  const background = spec?.kind === 'model' && live ? (spec.background ?? undefined) : undefined
  // The scene moves by itself here: its section offers a pause (none where it holds still).
  const pausable = live && moves
  const failed = status === 'error' && !!labels.error

  return (
    <div className={styles.slot} data-3d-state={status} data-3d-kind={spec?.kind ?? 'none'}>
      <div
        ref={stageRef}
        className={styles.stage}
        style={{ background }}
        // An image named by the scene's description, as a screen reader's browse mode reads it;
        // not focusable, and no keys of its own: the viewer's buttons under it are the way to
        // operate it (ViewControls.tsx).
        role={description ? 'img' : undefined}
        aria-label={description || undefined}
        aria-describedby={isViewer && live && labels.hint ? hintId : undefined}
        data-3d-stage=""
      >
        <div className={styles.poster}>{children}</div>
      </div>
      {isViewer && (
        // The live viewer's hotspot buttons and its model's variants go here, over the stage
        // (viewer/HotspotLayer.tsx, with the canvas host): outside the stage, whose role of an
        // image would hide them from screen readers. And the wheel's hint (viewer/gestures.ts).
        <div className={styles.overlay} data-3d-overlay="">
          {view && (
            <p
              className={controls.zoomHint}
              data-3d-zoom-hint=""
              data-mac={view.zoomHintMac !== view.zoomHint ? view.zoomHintMac : undefined}
            >
              {view.zoomHint}
            </p>
          )}
        </div>
      )}
      {!isViewer && pausable && (
        <MotionButton
          pause={labels.pause}
          play={labels.play}
          className={`${controls.icon} ${controls.corner}`}
        />
      )}
      {status === 'loading' && isViewer && (
        <progress
          className={styles.progress}
          aria-label={labels.loading}
          max={1}
          value={progress ?? undefined}
        />
      )}
      {status === 'ask' && labels.load && (
        <button type="button" className={styles.button} onClick={() => setWanted(true)}>
          {labels.load}
        </button>
      )}
      {failed && (
        // Shown to the eye; a screen reader hears it from the live region below, and reads it
        // there in browse mode (once, not twice).
        <p className={styles.message} aria-hidden="true">
          {labels.error}
        </p>
      )}
      {/* The slot's live region, on the page from the first paint and empty until it has something
          to say: the failure, the viewer live, its view reset, a finish chosen. Its class and
          attributes never change, only its words: a reader hears each change once. */}
      <p className="visually-hidden" role="status" data-3d-status="">
        {failed ? labels.error : said.n % 2 ? `${said.text}\u00a0` : said.text}
      </p>
      {isViewer ? (
        // The viewer's controls hold their place from the first paint, hidden until the scene is
        // live: showing them then would push the caption and everything below down the page (a
        // layout shift of 0.08 on the showcase, as the viewer arrived). The fallback description
        // takes the same place, so a poster with its description moves the page only by what the
        // text needs beyond it.
        <div className={styles.below}>
          <div className={live ? styles.controls : styles.waiting}>
            <HeldFinishes labels={spec?.kind === 'viewer' ? spec.variantLabels : undefined} />
            {view && (
              <ViewControls
                labels={view}
                live={live}
                send={send}
                onReset={reset}
                after={
                  <MotionButton
                    pause={labels.pause}
                    play={labels.play}
                    className={controls.icon}
                    hidden={!pausable}
                  />
                }
              />
            )}
            {labels.hint && (
              <p id={hintId} className={styles.hint}>
                {labels.hint}
              </p>
            )}
          </div>
          {fallbackDescription}
        </div>
      ) : (
        fallbackDescription
      )}
      {ownsHost && <Host />}
    </div>
  )
}

/**
 * The place of a viewer's finishes, under its stage (viewer/VariantRow.tsx renders the live row
 * into it). From the first paint it holds the row the editor's labels name, unseen and inert,
 * so that the live row's arrival moves nothing on the page; a model whose finishes the editor
 * did not label gets its row's room when it arrives.
 */
function HeldFinishes({ labels }: { labels: Record<string, string> | undefined }) {
  const names = Object.values(labels ?? {})
  return (
    <div className={finishes.finishes} data-3d-finishes="">
      {names.length > 0 && (
        <div className={`${finishes.row} ${finishes.held}`} aria-hidden="true" inert>
          {names.map((name) => (
            <button key={name} type="button" className={finishes.variant} disabled tabIndex={-1}>
              {name}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
