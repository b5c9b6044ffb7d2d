/* eslint-disable react-hooks/immutability -- three.js objects (renderer, camera, scene) are
   mutable by design: R3F code sets their fields in effects and frame callbacks. */

import { use, useEffect, useMemo, useRef, useState } from 'react'
import { extend, useFrame, useLoader, useThree } from '@react-three/fiber'
import {
  Box3,
  DirectionalLight,
  Group,
  LightProbe,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  OrthographicCamera,
  Sphere,
  Spherical,
  Vector3,
  type Object3D,
  type PerspectiveCamera,
} from 'three'
import { applyCommand, frameModel, orbitOf, placeCamera, useOrbit, viewTarget } from '../camera'
import { useLookEnvironment, LookEnvironment } from '../look-environment'
import { GroundShadow } from '../shadow'
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js'
import { configureGltfLoader } from '../gltf-loader'
import { MeasuredGLTFLoader, modelInfo } from '../model-info'
import { modelUrlFor } from '../../model-variant'
import type { LitEnvironment } from '../environment'
import { useModelAnimation } from './model-animation'
import { useStory } from '../story'
import { useHost } from '../host-context'
import {
  SceneCamera,
  useAnimationFrames,
  useMayAnimate,
  useMayTransition,
  useReportMoves,
} from '../scene-hooks'
import type { HotspotPlace, SceneSlot } from '../../protocol'
import type { SceneHotspot, SceneSpec } from '../../store'
import { pickPoint } from '../pick'
import { occluded, projectPins, worldPins } from '../hotspot-projection'
import type { VariantFunctions } from 'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js'

type Spec = Extract<SceneSpec, { kind: 'model' | 'viewer' }>

// The elements these scenes draw (see renderer.tsx, `extend`): their own, and drei's
// ContactShadows' (shadow.tsx).
extend({ DirectionalLight, Group, LightProbe, Mesh, MeshBasicMaterial, OrthographicCamera })

/** How long a turn to a hotspot's view takes, where motion is allowed. */
const TURN_MS = 700

/**
 * The most a turn advances in one frame. A frame that comes late (a busy device, a demand loop
 * waking up) moves the camera this far at most, so the turn slows down rather than jumps to its
 * end: the visitor always sees where it turns from.
 */
const TURN_STEP_MS = 100

/** How often, at most, rays are cast to see which hotspots the model hides (they cost). */
const OCCLUSION_MS = 100

/**
 * A viewer's hotspots, as the page pins its buttons: after each frame, their places on the stage
 * are sent when any moved or changed whether it shows (`hotspots`, protocol.ts). Whether the
 * model hides one is checked at most every `OCCLUSION_MS` while it moves, and once more when it
 * stops.
 */
function useHotspotPlaces(
  slot: SceneSlot,
  model: Object3D,
  camera: PerspectiveCamera,
  hotspots: readonly SceneHotspot[],
  radius: number,
) {
  const { store, report } = useHost()
  const state = useRef({
    sent: '',
    hidden: [] as boolean[],
    checked: -Infinity,
    timer: 0 as ReturnType<typeof setTimeout> | 0,
    places: [] as HotspotPlace[],
    seen: new Matrix4(),
  })
  useEffect(() => {
    const current = state.current
    return () => clearTimeout(current.timer)
  }, [])
  useFrame(() => {
    if (!hotspots.length) return
    const rect = store.get(slot.id)?.rect
    if (!rect || rect.width <= 0 || rect.height <= 0) return
    const s = state.current
    const pins = worldPins(model, hotspots)
    const send = () => {
      const places = s.places.map((place, i) => ({
        ...place,
        shown: place.shown && !s.hidden[i],
      }))
      const key = places.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)},${+p.shown}`).join(' ')
      if (key === s.sent) return
      s.sent = key
      report({ type: 'hotspots', id: slot.id, places })
    }
    // Deferred, it casts from where the pins are then (an animated model moves on).
    const check = (at = worldPins(model, hotspots)) => {
      s.checked = performance.now()
      s.hidden = occluded(at, model, camera, radius * 0.02)
    }
    s.places = projectPins(pins, camera, rect.width, rect.height)
    // Rays again when the camera or the model moved, not for a frame drawn for another reason.
    const moved = !s.seen.equals(camera.matrixWorld) || s.hidden.length !== hotspots.length
    s.seen.copy(camera.matrixWorld)
    if (moved || s.timer) {
      const wait = s.checked + OCCLUSION_MS - performance.now()
      clearTimeout(s.timer)
      s.timer = 0
      if (wait <= 0) check(pins)
      else
        // The last frame of a turn may come sooner than that: checked once the model rests.
        s.timer = setTimeout(() => {
          s.timer = 0
          check()
          send()
        }, wait)
    }
    send()
  }, 2)
}

function Model({
  slot,
  spec,
  environment,
}: {
  slot: SceneSlot
  spec: Spec
  /** The environment, loading beside the model (started by `ModelScene`). */
  environment: Promise<LitEnvironment>
}) {
  const { report, store, tier, model: fetching } = useHost()
  const gl = useThree((s) => s.gl)
  // The variant made for the tier the renderer measured, asked for before anything is fetched
  // (a model of another origin as it is): its bytes are the ones the progress counts.
  const url = modelUrlFor(spec.url, fetching.choice, tier, fetching.base)
  // Decoders from the site's own origin, fetched only for a model that needs them.
  const gltf = useLoader(
    MeasuredGLTFLoader,
    url,
    (loader) => configureGltfLoader(loader, gl),
    (event) =>
      report({
        type: 'progress',
        id: slot.id,
        progress: event.total ? Math.min(1, event.loaded / event.total) : null,
      }),
  )
  // `?debug3d`: what was fetched and what it holds, reported with the frame's figures.
  const loaded = fetching.loaded
  useEffect(() => {
    if (!loaded) return
    loaded[slot.id] = modelInfo(gltf, url)
    return () => {
      delete loaded[slot.id]
    }
  }, [loaded, slot.id, gltf, url])
  // A copy of its own for each slot (the loader caches one model per URL); skinned meshes keep
  // their bones, and meshes their material variants (KHR_materials_variants).
  const variants = (gltf as { functions?: Partial<VariantFunctions> }).functions
  const model = useMemo(() => {
    const copy = cloneSkinned(gltf.scene)
    variants?.copyVariantMaterials?.(copy, gltf.scene)
    return copy
  }, [gltf, variants])
  const variantNames = useMemo(
    () => ((gltf.userData as { variants?: string[] }).variants ?? []).slice(),
    [gltf],
  )
  const { center, radius, size } = useMemo(() => {
    const box = new Box3().setFromObject(model)
    const sphere = box.getBoundingSphere(new Sphere())
    return { center: sphere.center, radius: sphere.radius || 1, size: box.getSize(new Vector3()) }
  }, [model])
  // The light, with the model: both loaded side by side, the scene shown once both are here.
  const lit = use(environment)

  const camera = useThree((s) => s.camera) as PerspectiveCamera
  const invalidate = useThree((s) => s.invalidate)
  const turntable = useRef<Group>(null)
  const mayAnimate = useMayAnimate(slot)
  const mayTransition = useMayTransition(slot)
  // Turned by the visitor: auto-rotate rests, and starts again the editor's delay after their
  // last command (`touching`: set once per turn, not at every move, which come 60 a second).
  const [touched, setTouched] = useState(false)
  const touching = useRef<{ on: boolean; timer?: ReturnType<typeof setTimeout> }>({ on: false })
  const delay = spec.camera.rotateDelayMs
  const touch = useMemo(
    () => () => {
      const t = touching.current
      clearTimeout(t.timer)
      if (!t.on) setTouched((t.on = true))
      t.timer = setTimeout(() => setTouched((t.on = false)), delay)
    },
    [delay],
  )
  useEffect(() => () => clearTimeout(touching.current.timer), [])
  // Auto-rotate at 0° a second is none: no frame is drawn for it.
  const rotates = spec.autoRotate && spec.camera.rotationSpeed !== 0
  const turning = mayAnimate && rotates && !touched
  const orbit = useOrbit(camera, spec.kind === 'viewer' && turning, spec.camera.rotationSpeed)
  useAnimationFrames(turning)
  const hotspots = useMemo(() => (spec.kind === 'viewer' ? (spec.hotspots ?? []) : []), [spec])
  useHotspotPlaces(slot, model, camera, hotspots, radius)
  // A turn to a hotspot's view under way (motion allowed): from, to, and how far it has gone.
  const turn = useRef<{ from: Spherical; to: Spherical; elapsed: number } | null>(null)
  const { orbits } = useHost()
  const animated = useModelAnimation(model, gltf.animations, {
    clip: spec.clip,
    play: spec.animate,
    active: mayAnimate,
    url: spec.url,
  })
  // The page offers a pause for what moves by itself: the turntable or auto-rotate, a clip.
  useReportMoves(slot, rotates || animated)
  // The camera's settings (the story keeps an editor's turn inside its limits). By value: the
  // worker path receives a new copy of the spec with each description, the same settings in
  // another object.
  const settingsKey = JSON.stringify(spec.camera)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `spec.camera` is read through its key
  const settings = useMemo(() => spec.camera, [settingsKey])
  // A story: the camera, the clip, the finish and the exposure follow the visitor's scroll.
  const shape = useStory(slot, spec.kind === 'model' ? spec.story : undefined, {
    model,
    source: gltf.scene,
    camera,
    orbit,
    radius,
    center,
    clips: gltf.animations,
    url: spec.url,
    variants,
    variantNames,
    limits: settings.limits,
  })

  // Frame the model as the editor asked (render/camera.ts): the lens, the target, the start, the
  // limits. Once per model, slot and camera settings: the slot's description is sent again
  // whenever it changes (its visibility, as the visitor scrolls it away and back), and framing
  // again then would undo the visitor's turn.
  const firstSlot = useRef(slot)
  const slotId = slot.id
  // A story frames its camera itself, every frame, from the scroll (render/story.ts): framed here
  // too, in an effect that may run after its first frame, it would show the slice's start instead
  // of the step the visitor is at.
  const story = spec.kind === 'model' && !!spec.story
  useEffect(() => {
    if (story) return
    const rect = (store.get(slotId) ?? firstSlot.current).rect
    frameModel(camera, orbit, settings, { radius, center }, rect.width / Math.max(1, rect.height))
    invalidate()
  }, [camera, radius, center, settings, slotId, store, orbit, invalidate, story])

  // `?debug3d`: the art direction now drawn (its light, shadow and framing applied above).
  const { revisions } = useHost()
  useEffect(() => {
    if (!revisions) return
    revisions[slot.id] = spec.revision ?? 0
    invalidate()
    return () => {
      delete revisions[slot.id]
    }
  }, [revisions, slot.id, spec.revision, lit, invalidate])

  // A viewer's material variants: their names for the page's row, once the model is here; each
  // variant's materials loaded in the background, so that a press finds them ready.
  const shownVariant = useRef<{ name: string | null } | null>(null)
  useEffect(() => {
    if (spec.kind !== 'viewer') return
    report({ type: 'variants', id: slot.id, names: variantNames })
    if (!variantNames.length || !variants?.ensureLoadVariants) return
    // On a copy never drawn: the plugin puts each variant's material on the meshes while it
    // loads it, and a frame drawn meanwhile would show it (and stay on screen). The copies share
    // the table of loaded materials, so the model drawn finds them there.
    const spare = cloneSkinned(gltf.scene)
    variants.copyVariantMaterials?.(spare, gltf.scene)
    void variants.ensureLoadVariants(spare)
  }, [spec.kind, slot.id, report, variantNames, variants, gltf])
  useFrame(() => {
    const shown = shownVariant.current
    if (!shown) return
    shownVariant.current = null
    // Drawn in this frame: said once it is on screen, as `live` is.
    requestAnimationFrame(() => report({ type: 'variant', id: slot.id, name: shown.name }))
  }, 2)

  // The viewer's keyboard, pointer and reset commands, sent by the page.
  useEffect(() => {
    if (spec.kind !== 'viewer') return
    store.setCommand(slot.id, (command) => {
      if (command.type === 'variant') {
        const name =
          command.name !== null && variantNames.includes(command.name) ? command.name : null
        void variants?.selectVariant?.(model, name).then(() => {
          shownVariant.current = { name }
          invalidate()
        })
        return
      }
      // A story's (render/story.ts); a viewer's camera is the visitor's to turn, not to copy.
      if (command.type === 'read-view') return
      if (command.type === 'pick') {
        report({
          type: 'picked',
          id: slot.id,
          point: pickPoint(model, camera, command.x, command.y),
        })
        return
      }
      touch()
      turn.current = null
      if (command.type === 'view') {
        const to = viewTarget(orbit, camera, command)
        if (mayTransition) {
          const from = orbitOf(orbit, camera)
          // The short way round.
          to.theta =
            from.theta +
            Math.atan2(Math.sin(to.theta - from.theta), Math.cos(to.theta - from.theta))
          turn.current = { from, to, elapsed: 0 }
        } else placeCamera(orbit, camera, to)
      } else applyCommand(orbit, camera, settings, command)
      invalidate()
    })
    return () => store.setCommand(slot.id, null)
  }, [
    spec.kind,
    slot.id,
    store,
    orbit,
    camera,
    invalidate,
    report,
    model,
    mayTransition,
    variants,
    variantNames,
    settings,
    touch,
  ])

  useFrame((_, delta) => {
    const current = turn.current
    if (!current) return
    current.elapsed += Math.min(delta * 1000, TURN_STEP_MS)
    const t = Math.min(1, current.elapsed / TURN_MS)
    const eased = 1 - (1 - t) ** 3
    const { from, to } = current
    placeCamera(
      orbit,
      camera,
      new Spherical(
        from.radius + (to.radius - from.radius) * eased,
        from.phi + (to.phi - from.phi) * eased,
        from.theta + (to.theta - from.theta) * eased,
      ),
    )
    if (t < 1) invalidate()
    else turn.current = null
  })

  // `?debug3d`: the camera's orbit, reported with the frame's figures.
  useFrame(() => {
    if (!orbits || spec.kind !== 'viewer') return
    const { theta, phi, radius } = orbitOf(orbit, camera)
    orbits[slot.id] = { azimuth: theta, polar: phi, distance: radius }
  })
  useEffect(() => {
    if (!orbits) return
    return () => {
      delete orbits[slot.id]
    }
  }, [orbits, slot.id])

  useFrame((_, delta) => {
    if (!turning) return
    if (spec.kind === 'viewer') orbit.update(Math.min(delta, 0.1))
    else if (turntable.current)
      turntable.current.rotation.y += Math.min(delta, 0.1) * spec.camera.rotationSpeed
  })

  // The ground shadow turns with the hero's turntable (the model's footprint turns with it, so
  // its picture holds); it is drawn again only while the model itself moves (a clip playing).
  const { shadow } = spec.look
  return (
    <>
      <LookEnvironment lit={lit} skybox={spec.look.skybox} />
      <group ref={turntable}>
        <primitive object={model} position={center.clone().negate()} />
        <GroundShadow
          slotId={slot.id}
          footprint={Math.max(size.x, size.z)}
          height={size.y}
          bottom={-size.y / 2}
          intensity={shadow.intensity}
          softness={shadow.softness}
          moving={animated && mayAnimate}
          shape={shape}
        />
      </group>
    </>
  )
}

/**
 * A GLB from the media library, lit, shadowed and framed as the editor chose (look.ts): the hero's
 * model scene and the viewer. The environment starts loading here, beside the model, and both
 * are waited for by the model's suspense.
 */
export function ModelScene({ slot, spec }: { slot: SceneSlot; spec: Spec }) {
  const environment = useLookEnvironment(slot, spec.look)
  return (
    <>
      <SceneCamera position={[0, 1, 6]} fov={spec.camera.fov} />
      <Model slot={slot} spec={spec} environment={environment} />
    </>
  )
}
