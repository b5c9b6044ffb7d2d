// "View in your room" in the page itself: a WebXR `immersive-ar` session (Android's Chrome and the
// browsers that have WebXR with hit-testing). This module starts it: the overlay, the WebGL
// context, the session's request and its first frames. It holds no three.js, so that the press
// evaluates a few kilobytes before the camera's view is shown, not three.js's renderer (200 ms and
// more at 4× CPU, traced). The rest of the session (the renderer, the hit-test, the model, the
// controls, the end) is session.ts: its chunk is asked for with the session, so that it comes while
// the browser starts the session (a phone's camera and tracking take a while), and it takes over
// once the session's first frame is drawn. The visitor sees the room at once, the overlay's words
// over it.
//
// Loaded when the visitor points at the AR button, focuses it or presses it
// (src/components/ArLink.tsx imports it dynamically), in its own chunk: the page pays no byte and
// no task for it before. Written here rather than taken from `<model-viewer>`, whose WebXR code is
// part of its custom element and not published on its own.

import { AR_MARKS, type ArSettings } from '@/lib/ar'
import styles from './ar-session.module.css'
import { arWords } from './words'

/** What `enterAr` is given by the AR button. */
export type ArStart = {
  /** The model's AR variant (`tier=ar`), absolute. */
  model: string
  settings: ArSettings
  /** Where focus returns when the session ends: the AR button. */
  returnFocus: HTMLElement | null
  /** Called once, when the session has ended and the page is back as it was. */
  onEnd?: () => void
}

/** Why a session did not start: `activation` (press again), `unsupported`, or `failed`. */
export class ArStartError extends Error {
  constructor(
    readonly kind: 'activation' | 'unsupported' | 'failed',
    message: string,
  ) {
    super(message)
    this.name = 'ArStartError'
  }
}

/** What a failure says of itself, for the words that name its reason. */
export const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The words for a start that failed, in the page's language, for the AR button to show. */
export function startErrorMessage(error: unknown): string {
  const words = arWords(document.documentElement.lang)
  if (error instanceof ArStartError && error.kind === 'activation') return words.again
  return words.startFailed(reason(error))
}

/** How long after the session's live region is in the page its first words go in. */
const ANNOUNCE_AFTER_MS = 50

/** One press of "larger" or "smaller", when the slice allows resizing. */
export const SCALE_STEP = 1.25

/** The overlay's elements. */
export type Overlay = {
  root: HTMLElement
  status: HTMLElement
  leave: HTMLButtonElement
  /** "Place it here": enabled once the model is loaded. */
  place: HTMLButtonElement
  /** Pause and play of the model's animation: shown once one plays. */
  motion: HTMLButtonElement
  /** The controls that act on a placed model: enabled once it is placed. */
  placedControls: HTMLButtonElement[]
}

function button(text: string, onPress: () => void, className?: string): HTMLButtonElement {
  const element = document.createElement('button')
  element.type = 'button'
  element.textContent = text
  if (className) element.className = className
  element.addEventListener('click', onPress)
  return element
}

/**
 * Starts the session. Resolves once it has started (the model then loads inside it); rejects with
 * an `ArStartError` when it could not start, leaving the page untouched. Call it from the press's
 * handler: the browser grants a session only while the press's activation lasts, so the request
 * is made before anything else is awaited.
 */
export async function enterAr(start: ArStart): Promise<void> {
  const xr = navigator.xr
  if (!xr) throw new ArStartError('unsupported', 'WebXR is not available')
  const lang = document.documentElement.lang
  const words = arWords(lang)
  const placement = start.settings.placement
  const scrollX = window.scrollX
  const scrollY = window.scrollY
  const returnFocus =
    start.returnFocus ??
    (document.activeElement instanceof HTMLElement ? document.activeElement : null)

  // The overlay, with its actions bound below once the session exists.
  const actions = {
    leave: () => {},
    turn: (_sign: number) => {},
    scale: (_factor: number) => {},
    place: () => {},
    motion: () => {},
  }
  const root = document.createElement('div')
  root.className = styles.overlay!
  root.dataset.arSession = 'starting'
  root.setAttribute('role', 'dialog')
  root.setAttribute('aria-label', start.settings.label)
  // The session's live region goes in empty: a screen reader announces a change in a region
  // already on the page, not one that arrives with its words (WCAG 4.1.3). Its first words follow
  // in a later task, and each step of the session after them.
  const status = document.createElement('p')
  status.className = styles.status!
  status.setAttribute('role', 'status')
  setTimeout(() => {
    if (!status.textContent) status.textContent = words.starting
  }, ANNOUNCE_AFTER_MS)
  const controls = document.createElement('div')
  controls.className = styles.controls!
  const turns = [
    button(words.turnLeft, () => actions.turn(1)),
    button(words.turnRight, () => actions.turn(-1)),
  ]
  const scales = start.settings.resizable
    ? [
        button(words.smaller, () => actions.scale(1 / SCALE_STEP)),
        button(words.larger, () => actions.scale(SCALE_STEP)),
      ]
    : []
  // A tap on the room places the model; this button does the same from a keyboard or a switch
  // (WCAG 2.1.1), and "pause" stops a model's animation (2.2.2), shown once one plays.
  const place = button(words.place, () => actions.place())
  place.disabled = true
  const motion = button(words.pause, () => actions.motion())
  motion.hidden = true
  const leave = button(words.leave, () => actions.leave(), styles.leave)
  for (const control of [...turns, ...scales]) control.disabled = true
  controls.append(place, ...turns, ...scales, motion, leave)
  // A press on the overlay's buttons is theirs, not a tap on the room (which would move the model).
  controls.addEventListener('beforexrselect', (event) => event.preventDefault())
  root.append(status, controls)
  const overlay: Overlay = {
    root,
    status,
    leave,
    place,
    motion,
    placedControls: [...turns, ...scales],
  }
  // The overlay is a dialog over the camera's view: Tab goes round its own buttons, never into
  // the page hidden behind it.
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return
    const reachable = [...root.querySelectorAll<HTMLButtonElement>('button')].filter(
      (control) => !control.disabled && !control.hidden,
    )
    if (!reachable.length) return
    const at = reachable.indexOf(document.activeElement as HTMLButtonElement)
    const next = event.shiftKey
      ? at <= 0
        ? reachable.length - 1
        : at - 1
      : at === reachable.length - 1
        ? 0
        : at + 1
    event.preventDefault()
    reachable[next]!.focus()
  })
  document.body.append(root)

  const canvas = document.createElement('canvas')
  canvas.dataset.arCanvas = ''
  const context = canvas.getContext('webgl2', { xrCompatible: true, alpha: true, antialias: true })
  let session: XRSession
  let code: Promise<typeof import('./session')>
  try {
    if (!context) throw new ArStartError('unsupported', 'WebGL 2 is not available')
    const request = xr.requestSession('immersive-ar', {
      requiredFeatures: ['hit-test'],
      optionalFeatures: ['dom-overlay'],
      domOverlay: { root },
    })
    code = import('./session')
    code.catch(() => {})
    session = await request
  } catch (error) {
    root.remove()
    context?.getExtension('WEBGL_lose_context')?.loseContext()
    if (error instanceof ArStartError) throw error
    const name = (error as { name?: string } | null)?.name
    const message = reason(error)
    throw new ArStartError(
      name === 'NotAllowedError' || name === 'SecurityError'
        ? 'activation'
        : name === 'NotSupportedError'
          ? 'unsupported'
          : 'failed',
      message,
    )
  }
  // The room's space, where the visitor stands now: asked for before any frame lets the phone move.
  const local = session.requestReferenceSpace('local')
  local.catch(() => {})
  const restore: Restore = { lang, placement, scrollX, scrollY, returnFocus }
  actions.leave = () => void session.end().catch(() => {})
  // Focus moves into the overlay, as into a dialog: to its one control enabled from the start.
  leave.focus({ preventScroll: true })

  let handedOver = false
  let ended = false
  const endedEarly = () => {
    ended = true
    if (handedOver) return
    context.getExtension('WEBGL_lose_context')?.loseContext()
    endSession(overlay, canvas, restore, start)
  }
  session.addEventListener('end', endedEarly, { once: true })
  // A failure once the session has begun is said in the overlay; "Leave AR" still leaves.
  const fail = (text: string) => {
    root.dataset.arSession = 'failed'
    status.textContent = text
  }

  // The first frames: the camera's view of the room (the layer is transparent), the overlay's
  // words over it, until session.ts draws the scene. It takes over only once the first is drawn.
  let layer: XRWebGLLayer
  try {
    layer = new XRWebGLLayer(session, context)
    session.updateRenderState({ baseLayer: layer })
  } catch (error) {
    fail(words.startFailed(reason(error)))
    return
  }
  let codeLost = false
  code.catch((error: unknown) => {
    // The session's code could not be loaded (the network went).
    codeLost = true
    if (!ended) fail(words.codeFailed(reason(error)))
  })
  let marked = false
  const firstDrawn = new Promise<void>((drawn) => {
    const clear: XRFrameRequestCallback = () => {
      if (handedOver || ended) return
      context.bindFramebuffer(context.FRAMEBUFFER, layer.framebuffer)
      context.clearColor(0, 0, 0, 0)
      context.clear(context.COLOR_BUFFER_BIT | context.DEPTH_BUFFER_BIT)
      // For the page's own timing (and `npm run bench:ar`): the session's first frame drawn.
      if (!marked) performance.mark(AR_MARKS.firstFrame)
      marked = true
      drawn()
      session.requestAnimationFrame(clear)
    }
    session.requestAnimationFrame(clear)
  })
  void Promise.all([firstDrawn.then(() => code), local])
    .then(([{ run }, space]) => {
      if (ended) return
      handedOver = true
      session.removeEventListener('end', endedEarly)
      const handle = run(session, space, canvas, context, overlay, start, restore)
      actions.turn = handle.turn
      actions.scale = handle.scale
      actions.place = handle.place
      actions.motion = handle.motion
    })
    .catch((error: unknown) => {
      if (!ended && !codeLost) fail(words.startFailed(reason(error)))
    })
}

export type Restore = {
  lang: string
  placement: ArSettings['placement']
  scrollX: number
  scrollY: number
  returnFocus: HTMLElement | null
}

/** The page back as it was once a session has ended: the overlay gone, the scroll and the focus. */
export function endSession(
  overlay: Overlay,
  canvas: HTMLCanvasElement,
  restore: Restore,
  start: ArStart,
): void {
  canvas.remove()
  overlay.root.remove()
  // Back to the page as it was: where it was scrolled, the focus on the AR button.
  window.scrollTo(restore.scrollX, restore.scrollY)
  restore.returnFocus?.focus({ preventScroll: true })
  start.onEnd?.()
}
