/* eslint-disable react-hooks/immutability -- three.js objects (camera, controls, mixer) are
   mutable by design: a frame callback sets them. */

// A story's stage (../story/story.ts): each frame, the pose at the story's place that came with
// the frame's rectangles (`rects`' `scroll`), so the picture drawn is for the scroll position of
// that frame. The camera, the scrubbed clip, the finish and the exposure are set from that place
// alone: scrolling back shows the picture of the way down. Nothing plays by itself.
import { useEffect, useMemo, useRef } from 'react'
import { useFrame, useThree } from '@react-three/fiber'
import {
  AnimationMixer,
  Vector3,
  type AnimationAction,
  type AnimationClip,
  type Material,
  type Mesh,
  type Object3D,
  type PerspectiveCamera,
} from 'three'
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import type { VariantFunctions } from 'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js'
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js'
import { AUTO_ORBIT, fitDistance } from './camera'
import { useHost } from './host-context'
import { chooseClip } from './scenes/model-animation'
import {
  storyPose,
  storyViewFields,
  turnedPose,
  type StoryFrame,
  type StoryKeyframe,
  type StoryPose,
} from '@rules/story'
import type { OrbitLimits } from '@rules/look'
import type { SceneSlot } from '../protocol'

/**
 * The keyframes made whole for this model: an automatic view framed as the viewer frames one
 * (slightly from above, at a distance that fits the model in the step's lens), a target of
 * none the model's middle.
 */
export function storyFrames(
  keyframes: readonly StoryKeyframe[],
  model: { radius: number; center: Vector3 },
  aspect: number,
): StoryFrame[] {
  return keyframes.map((k) => {
    const fit = fitDistance({ fov: k.fov } as PerspectiveCamera, model.radius, aspect)
    const orbit = k.orbit ?? {
      azimuth: AUTO_ORBIT.azimuth,
      polar: AUTO_ORBIT.polar,
      distance: null,
    }
    return {
      ...k,
      azimuth: orbit.azimuth,
      polar: orbit.polar,
      distance: orbit.distance ?? fit * AUTO_ORBIT.scale,
      target: k.target ?? [model.center.x, model.center.y, model.center.z],
    }
  })
}

/**
 * Puts a finish's materials on the model's meshes now, in this frame: those the plugin has loaded
 * (KHR_materials_variants' table on each mesh), else the mesh's own until they are. Not the
 * plugin's `selectVariant`, which switches each mesh when its promise resolves: a finish asked for
 * before its materials were loaded would land after a later one, and the scroll that left that
 * step would show it.
 */
function showVariant(model: Object3D, name: string | null) {
  model.traverse((object) => {
    const mesh = object as Mesh
    const table = mesh.userData.variantMaterials as
      Record<string, { material?: Material | Material[] }> | undefined
    if (!mesh.isMesh || !table) return
    const own = (mesh.userData.originalMaterial ??= mesh.material) as Material | Material[]
    mesh.material = (name !== null ? table[name]?.material : undefined) ?? own
  })
}

/** How many times the model's shape has changed: a mutable count, read each frame. */
export type ShapeChanges = { count: number }

/**
 * Drives `model` and `camera` by the story's place (none: not a story). Runs before the slot's
 * view draws (priority 0 against its 1), and only when the place or the stage's shape changed.
 * Returns a count of the changes to the model's own shape (the scrubbed clip's time), which the
 * ground shadow follows: drawn again only in the frames that change it, not in every frame a
 * scroll draws (its five passes are most of a frame on a software renderer).
 */
export function useStory(
  slot: SceneSlot,
  keyframes: readonly StoryKeyframe[] | undefined,
  scene: {
    model: Object3D
    /** The loaded file's scene, which `model` copies (its variants' materials are loaded from it). */
    source: Object3D
    camera: PerspectiveCamera
    orbit: OrbitControls
    radius: number
    center: Vector3
    clips: readonly AnimationClip[]
    url: string
    variants: Partial<VariantFunctions> | undefined
    variantNames: readonly string[]
    /** The slice's limits, which an editor's turn keeps (`turnedPose`). */
    limits: OrbitLimits
  },
): ShapeChanges {
  const { store, report } = useHost()
  const invalidate = useThree((s) => s.invalidate)
  const {
    model,
    source,
    camera,
    orbit,
    radius,
    center,
    clips,
    url,
    variants,
    variantNames,
    limits,
  } = scene
  // By value: the worker path receives a new copy of the spec with each description of the slots
  // (a slot scrolled into view and out), the same steps in another array.
  const stepsKey = keyframes ? JSON.stringify(keyframes) : ''
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `keyframes` is read through its key
  const steps = useMemo(() => keyframes, [stepsKey])
  const mixer = useMemo(() => (steps ? new AnimationMixer(model) : null), [steps, model])
  const state = useRef({
    place: NaN,
    aspect: NaN,
    edited: 0,
    /** The action whose pose the model last took. */
    shaped: null as AnimationAction | null,
    action: null as AnimationAction | null,
    variant: undefined as string | null | undefined,
  })
  useEffect(() => {
    const s = state.current
    s.place = NaN
    return () => {
      s.action?.stop()
      s.action = null
      s.shaped = null
      s.variant = undefined
      mixer?.uncacheRoot(model)
    }
  }, [mixer, model])
  const shape = useMemo<ShapeChanges>(() => ({ count: 0 }), [])
  useEffect(() => {
    return () => store.setExposure(slot.id, null)
  }, [store, slot.id])
  // The steps' finishes loaded before they are reached: a finish then changes in the frame drawn
  // for the scroll that reaches its step (the plugin switches loaded materials at once), and a
  // place shows the same finish whichever way it was reached. On a copy never drawn, as the viewer
  // does (ModelScene.tsx); then the pose is set again, with its finish.
  useEffect(() => {
    if (!steps?.some((k) => k.variant !== null) || !variants?.ensureLoadVariants) return
    const spare = cloneSkinned(source)
    variants.copyVariantMaterials?.(spare, source)
    let current = true
    void variants.ensureLoadVariants(spare).then(() => {
      if (!current) return
      state.current.place = NaN
      state.current.variant = undefined
      invalidate()
    })
    return () => {
      current = false
    }
  }, [steps, variants, source, invalidate])
  const offset = useMemo(() => new Vector3(), [])
  // An editor's turn in a preview (the page sends commands only there): the scroll's pose turned
  // and moved in or out by this much, until the editor resets it.
  const edit = useRef({ azimuth: 0, polar: 0, scale: 1, version: 0 })
  // The scroll's pose last drawn, before the editor's turn.
  const scrolled = useRef<StoryPose | null>(null)
  useEffect(() => {
    if (!steps?.length) return
    store.setCommand(slot.id, (command) => {
      const e = edit.current
      const pose = scrolled.current
      if (command.type === 'read-view') {
        // The turn asked for last, drawn in the next frame or not.
        if (pose)
          report({
            type: 'story-view',
            id: slot.id,
            fields: storyViewFields(turnedPose(pose, e, limits).pose),
          })
        return
      }
      if (command.type === 'rotate') {
        e.azimuth += command.azimuth
        e.polar += command.polar
      } else if (command.type === 'zoom') e.scale *= command.factor
      else if (command.type === 'reset') Object.assign(e, { azimuth: 0, polar: 0, scale: 1 })
      else return
      // Kept inside the limits now, not only when drawn: a drag past one does not pile up.
      if (pose) Object.assign(e, turnedPose(pose, e, limits).edit)
      e.version++
      invalidate()
    })
    return () => store.setCommand(slot.id, null)
  }, [steps, store, slot.id, report, invalidate, limits])

  useFrame(() => {
    if (!steps?.length || !mixer) return
    const s = state.current
    const rect = store.get(slot.id)?.rect
    const aspect = rect && rect.height > 0 ? rect.width / rect.height : 1
    const place = store.scroll(slot.id) ?? 0
    const e = edit.current
    if (place === s.place && aspect === s.aspect && e.version === s.edited) return
    s.place = place
    s.aspect = aspect
    s.edited = e.version
    scrolled.current = storyPose(storyFrames(steps, { radius, center }, aspect), place)
    const pose = turnedPose(scrolled.current, e, limits).pose

    if (camera.fov !== pose.fov) {
      camera.fov = pose.fov
      camera.updateProjectionMatrix()
    }
    // The model is drawn with its middle at the origin (ModelScene), so its coordinates less the
    // middle are the scene's.
    orbit.target.set(...pose.target).sub(center)
    offset.setFromSphericalCoords(pose.distance, pose.polar, pose.azimuth)
    camera.position.copy(orbit.target).add(offset)
    camera.near = pose.distance / 100
    camera.far = pose.distance * 10 + radius * 10
    camera.updateProjectionMatrix()
    camera.lookAt(orbit.target)

    const clip = chooseClip(clips, pose.clip, url)
    if (clip) {
      const action = mixer.clipAction(clip)
      if (s.action !== action) {
        s.action?.stop()
        action.play()
        // Scrubbed: its time is set from the scroll, never advanced by the mixer.
        action.paused = true
        s.action = action
      }
      const time = Math.min(pose.time, clip.duration)
      // Applied in every frame the story draws (cheap); a change of shape is counted for the
      // ground shadow only when the time or the clip moved.
      if (action.time !== time || s.action !== s.shaped) shape.count++
      s.shaped = s.action
      action.time = time
      mixer.update(0)
    }

    const variant =
      pose.variant !== null && variantNames.includes(pose.variant) ? pose.variant : null
    if (variant !== s.variant) {
      s.variant = variant
      showVariant(model, variant)
    }
    store.setExposure(slot.id, pose.exposure)
  })
  return shape
}
