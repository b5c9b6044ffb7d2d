// A story told by scroll (src/slices/ScrollStory): its steps as an editor writes them, as the
// renderer draws them, and the rules both the site and `content:check` read. Imports no three.js.
//
// Each step is a keyframe: a camera view (the syntax of the look's camera-orbit and of a hotspot's
// view: `30deg 75deg 2.5m`), a target, a field of view, a point in one of the model's clips, a
// finish, an exposure and a background. The scroll is the timeline: `progress` runs from 0 (the
// first step) to the number of steps less one (the last), and the picture at a progress is a pure
// function of it (`storyPose`), so a position reached from above and from below shows the same.
import { parseOrbit, parseVec3, type Orbit, type Vec3 } from './hotspots'
import {
  parseOrbitLimit,
  RANGES,
  type FieldProblem,
  type OrbitLimit,
  type OrbitLimits,
} from './look'

/** One step's fields as the Content API gives them (the slice's `steps` group). */
export type StoryStepFields = {
  heading?: string | null
  view?: string | null
  target?: string | null
  field_of_view?: number | null
  clip?: string | null
  time?: number | null
  variant?: string | null
  exposure?: number | null
  background?: string | null
}

/**
 * One step as the renderer draws it: what the editor left empty is the step before's (the first
 * step's: the slice's), so each keyframe is whole. `orbit` null: framed automatically (the
 * renderer knows the model's size); its distance null: the automatic framing's.
 */
export type StoryKeyframe = {
  orbit: Orbit | null
  /** In the model's coordinates; null: the model's middle. */
  target: Vec3 | null
  fov: number
  /** The clip's name (null: the model's first clip), and the time in it, in seconds. */
  clip: string | null
  time: number
  /** A material variant's name (null: the model's own materials). */
  variant: string | null
  exposure: number
}

const given = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value)
const words = (value: string | null | undefined) => value?.trim() || null
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

/**
 * The renderer's keyframes from the steps' fields: each empty field the step before's, the first
 * step's the slice's (`start`). A field that does not parse is taken as empty (`content:check`
 * refuses it, naming the step).
 */
export function storyKeyframes(
  steps: readonly StoryStepFields[],
  start: { target: Vec3 | null; fov: number; exposure: number },
): StoryKeyframe[] {
  let previous: StoryKeyframe = {
    orbit: null,
    target: start.target,
    fov: start.fov,
    clip: null,
    time: 0,
    variant: null,
    exposure: start.exposure,
  }
  return steps.map((step) => {
    const view = words(step.view) ? parseOrbit(step.view) : null
    const target = words(step.target) ? parseVec3(step.target) : null
    const { min: fovMin, max: fovMax } = RANGES.field_of_view
    const { min: exposureMin, max: exposureMax } = RANGES.exposure
    const keyframe: StoryKeyframe = {
      orbit: view?.ok ? view.value : previous.orbit,
      target: target?.ok ? target.value : previous.target,
      fov: given(step.field_of_view) ? clamp(step.field_of_view, fovMin, fovMax) : previous.fov,
      clip: words(step.clip) ?? previous.clip,
      time: given(step.time) ? Math.max(0, step.time) : 0,
      variant: words(step.variant) ?? previous.variant,
      exposure: given(step.exposure)
        ? clamp(step.exposure, exposureMin, exposureMax)
        : start.exposure,
    }
    previous = keyframe
    return keyframe
  })
}

/** A keyframe's camera made whole by the renderer (its automatic framing filled in). */
export type StoryFrame = Omit<StoryKeyframe, 'orbit' | 'target'> & {
  azimuth: number
  polar: number
  distance: number
  target: Vec3
}

/** What the stage shows at one progress: a frame between two steps. */
export type StoryPose = StoryFrame

/** Slow out of a step and slow into the next: the camera settles on each step's view. */
export const ease = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2)

const lerp = (a: number, b: number, t: number) => a + (b - a) * t

/** The pair of steps `progress` lies between, and how far from the first (0 to 1). */
export function between(count: number, progress: number): { from: number; to: number; t: number } {
  if (count <= 1) return { from: 0, to: 0, t: 0 }
  const p = clamp(Number.isFinite(progress) ? progress : 0, 0, count - 1)
  const from = Math.min(Math.floor(p), count - 2)
  return { from, to: from + 1, t: p - from }
}

/**
 * The pose at `progress` (0: the first step, `frames.length - 1`: the last): the camera travels
 * around its target (the azimuth, the polar angle and the distance are eased between the two
 * steps' views, the azimuth the short way round), so it never passes through the model. The clip
 * is scrubbed: its time follows the scroll linearly; between two steps of different clips, and
 * for the finish, the nearer step's. A pure function of its arguments.
 */
export function storyPose(frames: readonly StoryFrame[], progress: number): StoryPose {
  const { from, to, t } = between(frames.length, progress)
  const a = frames[from]!
  const b = frames[to] ?? a
  const e = ease(t)
  const turn = Math.atan2(Math.sin(b.azimuth - a.azimuth), Math.cos(b.azimuth - a.azimuth))
  const near = t < 0.5 ? a : b
  const sameClip = a.clip === b.clip
  return {
    azimuth: a.azimuth + turn * e,
    polar: lerp(a.polar, b.polar, e),
    distance: lerp(a.distance, b.distance, e),
    target: [0, 1, 2].map((k) => lerp(a.target[k]!, b.target[k]!, e)) as Vec3,
    fov: lerp(a.fov, b.fov, e),
    exposure: lerp(a.exposure, b.exposure, e),
    clip: sameClip ? a.clip : near.clip,
    time: sameClip ? lerp(a.time, b.time, t) : near.time,
    variant: near.variant,
  }
}

/**
 * Where the visitor is in the story: each step's middle (`middles`, in CSS pixels from the top of
 * the window, in order) against the window's middle (`line`). 0 while the first step's middle is
 * at or below the line, 1 when the second's reaches it, and so on; the last step's index once its
 * middle has passed it. With reduced motion, the nearest step's index: each step is a still,
 * changed where the visitor passes from one step's half to the next.
 */
export function storyProgress(middles: readonly number[], line: number, still = false): number {
  if (middles.length <= 1) return 0
  let progress = middles.length - 1
  for (let i = 0; i < middles.length - 1; i++) {
    const top = middles[i]!
    const next = middles[i + 1]!
    if (line <= top) {
      progress = i
      break
    }
    if (line < next) {
      progress = i + (line - top) / (next - top)
      break
    }
  }
  return still ? Math.round(progress) : progress
}

/** A `#rrggbb` colour between two, for the stage's background between steps. */
export function mixColour(a: string | null, b: string | null, t: number): string | null {
  const rgb = (hex: string | null) =>
    hex && /^#[0-9a-f]{6}$/i.test(hex)
      ? [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
      : null
  const x = rgb(a)
  const y = rgb(b)
  if (!x || !y) return (t < 0.5 ? a : b) ?? null
  const e = ease(t)
  return `#${x
    .map((c, k) =>
      Math.round(lerp(c, y[k]!, e))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** An editor's turn in a preview, on top of the scroll's pose: turned, tilted, moved in or out. */
export type StoryEdit = { azimuth: number; polar: number; scale: number }

/** How far an editor's zoom moves the camera where the slice sets no distance limit. */
const EDIT_SCALE: [number, number] = [0.25, 4]

/**
 * `pose` turned by an editor's `edit`, kept inside the slice's limits (the camera's, as the
 * viewer keeps them: never over a pole; without a distance limit, a quarter to four times the
 * step's distance), so that "copy this view" gives a view `content:check` takes. A limit the
 * scroll's own pose is past is widened to it: no edit, no change. Also the edit that reaches the
 * pose, to keep in place of `edit`: a drag on past a limit does not pile up, so the way back
 * moves the stage at once.
 */
export function turnedPose(
  pose: StoryPose,
  edit: StoryEdit,
  limits: OrbitLimits,
): { pose: StoryPose; edit: StoryEdit } {
  const within = (value: number, base: number, [low, high]: readonly [number, number]) =>
    clamp(value, Math.min(low, base), Math.max(high, base))
  // Directions written from -180 to 180 degrees, as the copy writes them and the limits are read.
  const wrap = (angle: number) => Math.atan2(Math.sin(angle), Math.cos(angle))
  const base = wrap(pose.azimuth)
  const azimuth = within(wrap(base + edit.azimuth), base, limits.azimuth)
  const polar = within(pose.polar + edit.polar, pose.polar, [
    Math.max(0.01, limits.polar[0]),
    Math.min(Math.PI - 0.01, limits.polar[1]),
  ])
  const [near, far] = limits.distance
  const distance = within(pose.distance * edit.scale, pose.distance, [
    near ?? pose.distance * EDIT_SCALE[0],
    far ?? pose.distance * EDIT_SCALE[1],
  ])
  return {
    pose: { ...pose, azimuth, polar, distance },
    edit: { azimuth: azimuth - base, polar: polar - pose.polar, scale: distance / pose.distance },
  }
}

/** A step's camera fields as an editor writes them, for one pose: what "copy this view" gives. */
export type StoryViewFields = { view: string; target: string; field_of_view: number }

/**
 * The fields that give `pose`'s camera back: its view (azimuth from -180 to 180 degrees, polar
 * angle, distance), its target in the model's metres and its field of view, rounded to what
 * an editor can see (a tenth of a degree, a centimetre, a millimetre).
 */
export function storyViewFields(
  pose: Pick<StoryPose, 'azimuth' | 'polar' | 'distance' | 'target' | 'fov'>,
): StoryViewFields {
  const azimuth = Math.atan2(Math.sin(pose.azimuth), Math.cos(pose.azimuth))
  const metres = (value: number, places: number) => `${+value.toFixed(places) || 0}`
  return {
    view: `${degrees(azimuth)} ${degrees(pose.polar)} ${metres(pose.distance, 2)}m`,
    target: pose.target.map((value) => metres(value, 3)).join(' '),
    field_of_view: +pose.fov.toFixed(1),
  }
}

/** The limits of the slice's `min_camera_orbit` and `max_camera_orbit`, where they parse. */
export type StoryLimits = { min: OrbitLimit | null; max: OrbitLimit | null }

const degrees = (radians: number) => `${+((radians * 180) / Math.PI).toFixed(1)}deg`

/**
 * Each problem of one step, as `content:check` names it: a view or a target that does not parse,
 * a view outside the slice's limits, a clip or a finish the model does not have (`model`: its
 * clips' and variants' names, when the model was read).
 */
export function storyStepProblems(
  step: StoryStepFields,
  limits: StoryLimits,
  model: { clips: readonly string[]; variants: readonly string[] } | null,
): FieldProblem[] {
  const problems: FieldProblem[] = []
  if (words(step.view)) {
    const view = parseOrbit(step.view)
    if (!view.ok) problems.push({ field: 'view', message: `is ${view.reason}` })
    else {
      const { azimuth, polar, distance } = view.value
      const check = (part: string, value: number | null, end: 'min' | 'max', shown: string) => {
        const limit = limits[end]?.[part as keyof OrbitLimit]
        if (value === null || limit === null || limit === undefined) return
        if (end === 'min' ? value < limit - 1e-9 : value > limit + 1e-9)
          problems.push({
            field: 'view',
            message: `is "${step.view!.trim()}": its ${part} ${shown} is ${end === 'min' ? 'under' : 'over'} the slice's ${end}_camera_orbit (${part === 'distance' ? `${limit}m` : degrees(limit)})`,
          })
      }
      for (const end of ['min', 'max'] as const) {
        check('azimuth', azimuth, end, degrees(azimuth))
        check('polar', polar, end, degrees(polar))
        check('distance', distance, end, `${distance}m`)
      }
    }
  }
  if (words(step.target)) {
    const target = parseVec3(step.target)
    if (!target.ok) problems.push({ field: 'target', message: `is ${target.reason}` })
  }
  const clip = words(step.clip)
  if (clip && model) {
    if (!model.clips.length)
      problems.push({ field: 'clip', message: `is "${clip}", but the model has no animation` })
    else if (!model.clips.includes(clip))
      problems.push({
        field: 'clip',
        message: `is "${clip}", which the model does not have (it has ${model.clips.map((c) => `"${c}"`).join(', ')})`,
      })
  }
  const variant = words(step.variant)
  if (variant && model && !model.variants.includes(variant))
    problems.push({
      field: 'variant',
      message: model.variants.length
        ? `is "${variant}", which the model does not have (its finishes: ${model.variants.map((v) => `"${v}"`).join(', ')})`
        : `is "${variant}", but the model has no finishes (no KHR_materials_variants)`,
    })
  return problems
}

/** The slice's limits, from its fields (a limit that does not parse is the look's problem). */
export function storyLimits(fields: {
  min_camera_orbit?: string | null
  max_camera_orbit?: string | null
}): StoryLimits {
  const limit = (text: string | null | undefined) => {
    if (!text?.trim()) return null
    const parsed = parseOrbitLimit(text)
    return parsed.ok ? parsed.value : null
  }
  return { min: limit(fields.min_camera_orbit), max: limit(fields.max_camera_orbit) }
}
