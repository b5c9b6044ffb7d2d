// The in-page AR session once started (start.ts starts it and draws its first frames): a reticle
// follows the surface hit-testing finds straight ahead (the floor, or a wall, as the slice says); a
// tap places the model there at its true size in metres; another tap moves it; buttons turn it (and
// resize it, when the slice allows). The session's controls are a DOM overlay, and "Leave AR" ends
// it: the page is then as it was, the viewer live, the scroll position and the focus kept.
//
// In its own chunk, which start.ts asks for on the press, beside the session's request; it takes
// the session over once the session's first frame is drawn. The session needs a WebGL context on
// the page's thread (WebXR has none in workers), so it makes its own renderer, separate from the
// worker's.

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
import { AR_MARKS } from '@/lib/ar'
import {
  environmentBytes,
  fileEnvironment,
  presetEnvironment,
  type LitEnvironment,
} from '../render/environment'
import { toneMappingOf } from '../render/tone-mapping'
import { environmentUrlFor } from '../model-variant'
import { configureGltfLoader } from '../render/gltf-loader'
import { endSession, reason, type ArStart, type Overlay, type Restore } from './start'
import { arWords, sizeInMetres } from './words'
import { motionPaused } from '../viewer/motion'

/** One press of a turn button, in degrees. */
const TURN_STEP = 15
/** Resizing's bounds, when the slice allows it (a fraction of the true size). */
const SCALE_MIN = 0.25
const SCALE_MAX = 4
/** How upright a surface's normal is (its y): a floor's is near 1, a wall's near 0. */
const FLOOR_MIN_UP = 0.75
const WALL_MAX_UP = 0.3

/** Runs a started session: the renderer, the hit-test, the model, the controls, the end. */
export function run(
  session: XRSession,
  local: XRReferenceSpace,
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
    .catch((error: unknown) => say('failed', words.loadFailed(reason(error))))

  // The latest surface found ahead, in the session's reference space.
  const surface = new Matrix4()
  const normal = new Vector3()
  let surfaceFound = false
  let last = 0

  renderer.setAnimationLoop((time, frame) => {
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
      endSession(overlay, canvas, restore, start)
    },
    { once: true },
  )

  // The room's space is the one asked for as the session began (start.ts), not the one three.js
  // asks for now: a space is placed where the viewer is when it is asked for, and the phone may
  // have moved during the first frames. Set once three.js has its own (it clears ours before),
  // ahead of its first frame.
  renderer.xr
    .setSession(session)
    .then(() => renderer.xr.setReferenceSpace(local))
    .catch((error: unknown) => {
      say('failed', words.startFailed(String(error)))
    })
  return handle
}
