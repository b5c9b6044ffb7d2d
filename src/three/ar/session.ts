// "View in your room" in the page itself: a WebXR `immersive-ar` session (Android's Chrome and the
// browsers that have WebXR with hit-testing). A reticle follows the surface hit-testing finds
// straight ahead (the floor, or a wall, as the slice says); a tap places the model there at its
// true size in metres; another tap moves it; buttons turn it (and resize it, when the slice allows).
// The session's controls are a DOM overlay, and "Leave AR" ends it: the page is then as it was,
// the viewer live, the scroll position and the focus kept.
//
// Loaded only when the visitor points at the AR button, focuses it or presses it
// (src/components/ArLink.tsx imports it dynamically), in its own chunk: the page pays no byte and
// no task for it before. The session
// needs a WebGL context on the page's thread (WebXR has none in workers), so it makes its own
// renderer, separate from the worker's. Written here rather than taken from `<model-viewer>`,
// whose WebXR code is part of its custom element and not published on its own.

import {
  AnimationMixer,
  Box3,
  Group,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  RingGeometry,
  Scene,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { AR_MARKS, type ArSettings } from '@/lib/ar'
import {
  environmentBytes,
  fileEnvironment,
  presetEnvironment,
  type LitEnvironment,
} from '../render/environment'
import { toneMappingOf } from '../render/tone-mapping'
import { environmentUrlFor } from '../model-variant'
import { configureGltfLoader } from '../render/gltf-loader'
import styles from './ar-session.module.css'
import { arWords, sizeInMetres } from './words'
import { motionPaused } from '../viewer/motion'

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

/** The words for a start that failed, in the page's language, for the AR button to show. */
export function startErrorMessage(error: unknown): string {
  const words = arWords(document.documentElement.lang)
  if (error instanceof ArStartError && error.kind === 'activation') return words.again
  return words.startFailed(error instanceof Error ? error.message : String(error))
}

/** How long after the session's live region is in the page its first words go in. */
const ANNOUNCE_AFTER_MS = 50

/** One press of a turn button, in degrees. */
const TURN_STEP = 15
/** Resizing's steps and bounds, when the slice allows it (a fraction of the true size). */
const SCALE_STEP = 1.25
const SCALE_MIN = 0.25
const SCALE_MAX = 4
/** How upright a surface's normal is (its y): a floor's is near 1, a wall's near 0. */
const FLOOR_MIN_UP = 0.75
const WALL_MAX_UP = 0.3

/** The overlay's elements. */
type Overlay = {
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
  try {
    if (!context) throw new ArStartError('unsupported', 'WebGL 2 is not available')
    session = await xr.requestSession('immersive-ar', {
      requiredFeatures: ['hit-test'],
      optionalFeatures: ['dom-overlay'],
      domOverlay: { root },
    })
  } catch (error) {
    root.remove()
    context?.getExtension('WEBGL_lose_context')?.loseContext()
    if (error instanceof ArStartError) throw error
    const name = (error as { name?: string } | null)?.name
    const message = error instanceof Error ? error.message : String(error)
    throw new ArStartError(
      name === 'NotAllowedError' || name === 'SecurityError'
        ? 'activation'
        : name === 'NotSupportedError'
          ? 'unsupported'
          : 'failed',
      message,
    )
  }
  const handle = run(session, canvas, context, overlay, start, {
    lang,
    placement,
    scrollX,
    scrollY,
    returnFocus,
  })
  actions.leave = () => void session.end().catch(() => {})
  actions.turn = handle.turn
  actions.scale = handle.scale
  actions.place = handle.place
  actions.motion = handle.motion
  // Focus moves into the overlay, as into a dialog: to its one control enabled from the start.
  leave.focus({ preventScroll: true })
}

type Restore = {
  lang: string
  placement: ArSettings['placement']
  scrollX: number
  scrollY: number
  returnFocus: HTMLElement | null
}

/** Runs a started session: the renderer, the hit-test, the model, the controls, the end. */
function run(
  session: XRSession,
  canvas: HTMLCanvasElement,
  context: WebGL2RenderingContext,
  overlay: Overlay,
  start: ArStart,
  restore: Restore,
): {
  turn: (sign: number) => void
  scale: (factor: number) => void
  place: () => void
  motion: () => void
} {
  const words = arWords(restore.lang)
  const { root, status } = overlay
  // Once failed, the session says so until the visitor leaves: nothing later replaces it.
  let failed = false
  const say = (state: string, text: string) => {
    if (failed) return
    failed = state === 'failed'
    root.dataset.arSession = state
    if (status.textContent !== text) status.textContent = text
  }

  const renderer = new WebGLRenderer({ canvas, context, alpha: true, antialias: true })
  renderer.setPixelRatio(window.devicePixelRatio)
  renderer.setClearColor(0x000000, 0)
  renderer.xr.enabled = true
  renderer.xr.setReferenceSpaceType('local')
  // The slice's light where WebXR allows it: its exposure and tone mapping on the session's
  // frames, and its environment for the model's reflections (a file at the phone's size, or a
  // preset; the neutral preset when there is none, or when the file cannot be read). The camera's
  // view of the room is the backdrop.
  const look = start.settings.look
  renderer.toneMapping = toneMappingOf(look?.toneMapping ?? 'neutral')
  renderer.toneMappingExposure = look?.exposure ?? 1
  const scene = new Scene()
  const lit: LitEnvironment[] = []
  const wanted = look?.environment
  // A file's bytes come over the network beside the model's, from now.
  let file: { url: string; hdr: boolean; at: string; bytes: Promise<ArrayBuffer> } | null = null
  if (wanted?.kind === 'file') {
    const at = environmentUrlFor(wanted.url, 'low', false, location.href)
    file = { url: wanted.url, hdr: wanted.hdr, at, bytes: environmentBytes(at) }
    file.bytes.catch(() => {})
  }
  /**
   * The environment, made once the model is parsed: prefiltering it is GPU work that holds the
   * page's thread until it is done (seconds on a software renderer), and made first it held up
   * the model's parse as well. Nothing lit is drawn before the model, and the model is shown
   * only once this is done, so it is never seen unlit.
   */
  const light = async () => {
    if (file)
      await fileEnvironment(renderer, file.at, file.hdr, 'high', file.bytes).then(
        (environment) => lit.push(environment),
        (error: unknown) =>
          console.warn(`AR: the environment ${file.url} cannot be used (${String(error)})`),
      )
    else if (wanted?.kind === 'preset') lit.push(presetEnvironment(renderer, wanted.preset))
    if (!lit.length) lit.push(presetEnvironment(renderer, 'neutral'))
    scene.environment = lit.at(-1)!.lighting
  }
  const camera = new PerspectiveCamera()

  // The reticle: a ring lying on the surface found, as `<model-viewer>` and Scene Viewer show it.
  const reticle = new Mesh(
    new RingGeometry(0.08, 0.1, 40).rotateX(-Math.PI / 2),
    new MeshBasicMaterial({ color: 0xffffff }),
  )
  reticle.matrixAutoUpdate = false
  reticle.visible = false
  scene.add(reticle)

  // The model sits in a pivot whose origin is the point that touches the surface: the middle of
  // its base on a floor, the middle of its back on a wall.
  const pivot = new Group()
  pivot.visible = false
  scene.add(pivot)
  let model: Object3D | null = null
  let mixer: AnimationMixer | null = null
  let size = new Vector3()
  let yaw = 0
  let scale = 1
  let ended = false
  let playing = false

  const placedText = () =>
    words.placed(sizeInMetres(size.x, size.y, size.z, restore.lang), Math.round(scale * 100))
  const searching = () => (restore.placement === 'wall' ? words.searchWall : words.searchFloor)

  const handle = {
    turn(sign: number) {
      if (!pivot.visible) return
      yaw = (((yaw + sign * TURN_STEP) % 360) + 360) % 360
      // A floor's model turns about the vertical; a wall's about the wall's normal (its pivot's z).
      if (restore.placement === 'wall') pivot.rotateZ((sign * TURN_STEP * Math.PI) / 180)
      else pivot.rotateY((sign * TURN_STEP * Math.PI) / 180)
      say('placed', words.turned(yaw))
    },
    scale(factor: number) {
      if (!pivot.visible) return
      scale = Math.min(SCALE_MAX, Math.max(SCALE_MIN, scale * factor))
      pivot.scale.setScalar(scale)
      say('placed', placedText())
    },
    place: () => onSelect(),
    motion() {
      playing = !playing
      overlay.motion.textContent = playing ? words.pause : words.play
    },
  }

  // The hit-test straight ahead of the viewer (the screen's centre): where the reticle goes.
  let hitSource: XRHitTestSource | null = null
  session
    .requestReferenceSpace('viewer')
    .then((viewer) => session.requestHitTestSource?.({ space: viewer }))
    .then((source) => {
      if (ended) source?.cancel()
      else hitSource = source ?? null
    })
    .catch((error: unknown) => say('failed', words.startFailed(String(error))))

  const loader = new GLTFLoader()
  configureGltfLoader(loader, renderer)
  say('loading', words.loading)
  loader
    .loadAsync(start.model)
    .then(async (gltf) => {
      if (ended) return
      const parsed = gltf.scene
      // Precise: from the vertices, not from each mesh's box turned with it (which overstates the size).
      const box = new Box3().setFromObject(parsed, true)
      size = box.getSize(new Vector3())
      const center = box.getCenter(new Vector3())
      parsed.position.sub(
        restore.placement === 'wall'
          ? new Vector3(center.x, center.y, box.min.z)
          : new Vector3(center.x, box.min.y, center.z),
      )
      pivot.add(parsed)
      await light()
      // Its shaders compiled before it is shown (without holding the page's thread where the
      // browser compiles in parallel), so that the tap that places it shows it at once.
      await renderer.compileAsync(parsed, camera, scene)
      if (ended) return
      // Ready to place: parsed, lit and compiled.
      model = parsed
      performance.mark(AR_MARKS.model)
      // Its first clip plays, as in AR Quick Look, with a button that pauses it; paused from the
      // start when the visitor paused the page's 3D (or asked for reduced motion: motion.ts).
      const clip = gltf.animations[0]
      if (clip) {
        mixer = new AnimationMixer(model)
        mixer.clipAction(clip).play()
        playing = !motionPaused()
        overlay.motion.textContent = playing ? words.pause : words.play
        overlay.motion.hidden = false
      }
      overlay.place.disabled = false
      say('searching', searching())
    })
    .catch((error: unknown) =>
      say('failed', words.loadFailed(error instanceof Error ? error.message : String(error))),
    )

  // The latest surface found ahead, in the session's reference space.
  const surface = new Matrix4()
  const normal = new Vector3()
  let surfaceFound = false
  let last = 0

  let drawn = false
  renderer.setAnimationLoop((time, frame) => {
    // For the page's own timing (and `npm run bench:ar`): the session's first frame drawn.
    if (!drawn && frame) {
      drawn = true
      performance.mark(AR_MARKS.firstFrame)
    }
    const delta = last ? (time - last) / 1000 : 0
    last = time
    if (playing) mixer?.update(delta)
    surfaceFound = false
    const space = renderer.xr.getReferenceSpace()
    if (frame && hitSource && space) {
      for (const result of frame.getHitTestResults(hitSource)) {
        const pose = result.getPose(space)
        if (!pose) continue
        surface.fromArray(pose.transform.matrix)
        // A hit's pose has the surface's normal as its y axis.
        normal.setFromMatrixColumn(surface, 1).normalize()
        const upright = Math.abs(normal.y)
        if (restore.placement === 'wall' ? upright <= WALL_MAX_UP : normal.y >= FLOOR_MIN_UP) {
          surfaceFound = true
          break
        }
      }
    }
    reticle.visible = surfaceFound
    if (surfaceFound) reticle.matrix.copy(surface)
    // Before the model is placed: whether a tap would place it (a tap that found no surface keeps
    // its hint until one is found).
    if (model && !pivot.visible) {
      if (surfaceFound) say('ready', words.ready)
      else if (root.dataset.arSession !== 'no-surface') say('searching', searching())
    }
    renderer.render(scene, camera)
  })

  // A tap on the room (a screen touch, a controller's trigger) or "Place it here": the model goes
  // where the reticle is.
  function onSelect() {
    if (!model || failed) return
    if (!surfaceFound) {
      say(pivot.visible ? 'placed' : 'no-surface', words.noSurface)
      return
    }
    const at = new Vector3().setFromMatrixPosition(surface)
    pivot.position.copy(at)
    if (restore.placement === 'wall') {
      // Its back against the wall, upright: the pivot's z is the wall's normal.
      pivot.quaternion.setFromRotationMatrix(
        new Matrix4().lookAt(normal, new Vector3(), new Vector3(0, 1, 0)),
      )
      pivot.rotateZ((yaw * Math.PI) / 180)
    } else {
      // On the floor, facing the visitor, then as far turned as they turned it.
      const eye = new Vector3().setFromMatrixPosition(renderer.xr.getCamera().matrixWorld)
      pivot.rotation.set(0, Math.atan2(eye.x - at.x, eye.z - at.z) + (yaw * Math.PI) / 180, 0)
    }
    pivot.visible = true
    for (const control of overlay.placedControls) control.disabled = false
    say('placed', placedText())
  }
  session.addEventListener('select', onSelect)

  session.addEventListener(
    'end',
    () => {
      ended = true
      hitSource?.cancel()
      renderer.setAnimationLoop(null)
      mixer?.stopAllAction()
      pivot.traverse((object) => {
        const mesh = object as Mesh
        mesh.geometry?.dispose()
        const materials = Array.isArray(mesh.material) ? mesh.material : [mesh.material]
        for (const material of materials) {
          if (!material) continue
          for (const value of Object.values(material))
            if (value && typeof value === 'object' && 'isTexture' in value)
              (value as { dispose: () => void }).dispose()
          material.dispose()
        }
      })
      reticle.geometry.dispose()
      reticle.material.dispose()
      for (const environment of lit) {
        environment.lighting?.dispose()
        environment.background.dispose()
      }
      renderer.dispose()
      canvas.remove()
      root.remove()
      // Back to the page as it was: where it was scrolled, the focus on the AR button.
      window.scrollTo(restore.scrollX, restore.scrollY)
      restore.returnFocus?.focus({ preventScroll: true })
      start.onEnd?.()
    },
    { once: true },
  )

  renderer.xr.setSession(session).catch((error: unknown) => {
    say('failed', words.startFailed(String(error)))
  })
  return handle
}
