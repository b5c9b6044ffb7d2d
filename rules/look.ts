// Art direction as content: how a model is lit, shadowed and framed (the model viewer slice and the
// hero's model variation, over the site-wide defaults of the settings document). The fields'
// names, what each takes, their defaults and their ranges, and the parsers both the site
// (fields.ts) and `content:check` read. Imports no three.js.
//
// The settings are `<model-viewer>`'s, as content: environment-image (a preset or an uploaded
// equirectangular image), exposure, tone-mapping, skybox-image, shadow-intensity and
// shadow-softness, camera-orbit, camera-target, field-of-view, min and max camera-orbit and
// field-of-view, rotation-per-second and auto-rotate-delay. Orbits are written as theirs are
// (`30deg 75deg 2.5m`), as a hotspot's view is (hotspots.ts).
import { parseOrbit, parseVec3, type Orbit, type Parsed, type Vec3 } from './hotspots'

/** The environments the renderer makes itself (no file): render/environments.ts draws each. */
export const ENVIRONMENT_PRESETS = ['neutral', 'soft-studio', 'contrast-studio', 'outdoor'] as const
export type EnvironmentPreset = (typeof ENVIRONMENT_PRESETS)[number]

/** The tone mappings: Khronos PBR Neutral, AgX, ACES Filmic (three's). */
export const TONE_MAPPINGS = ['neutral', 'agx', 'aces'] as const
export type ToneMapping = (typeof TONE_MAPPINGS)[number]

/** What lights a model: a preset, or an environment file of the site's origin. */
export type SceneEnvironment =
  | { kind: 'preset'; preset: EnvironmentPreset }
  /** `hdr`: a Radiance HDR; else an 8-bit image (JPEG, PNG, AVIF). */
  | { kind: 'file'; url: string; hdr: boolean }

/** The light and the shadow a model is shown in. */
export type SceneLook = {
  environment: SceneEnvironment
  /** The environment shows behind the model; else the page's colour (or the slot's). */
  skybox: boolean
  exposure: number
  toneMapping: ToneMapping
  /** The soft shadow on the ground under the model: 0 (none) to 1, and its blur, 0 to 1. */
  shadow: { intensity: number; softness: number }
}

/** How far the visitor may turn and zoom: angles in radians, distances in metres. */
export type OrbitLimits = {
  azimuth: [number, number]
  polar: [number, number]
  /** Null: the viewer's own, from the model's framing (0.4× and 3× its distance). */
  distance: [number | null, number | null]
}

/** The camera the editor chose: where it starts, what it looks at, its lens and its limits. */
export type SceneCamera = {
  /** Where it starts around the target (null: framed automatically, slightly from above). */
  orbit: Orbit | null
  /** The point it looks at, in the model's coordinates (null: the middle of the model). */
  target: Vec3 | null
  /** The vertical field of view, in degrees. */
  fov: number
  /** How far zooming in may narrow the field of view, past the nearest distance; and the widest. */
  fovRange: [number, number]
  limits: OrbitLimits
  /** Auto-rotate's speed, in radians a second (the hero's turntable, the viewer's orbit). */
  rotationSpeed: number
  /** How long after the visitor lets go auto-rotate starts again, in ms. */
  rotateDelayMs: number
}

/** Each number field's range, and the unit an editor writes it in. */
export const RANGES = {
  exposure: { min: 0.1, max: 4, unit: '' },
  shadow_intensity: { min: 0, max: 1, unit: '' },
  shadow_softness: { min: 0, max: 1, unit: '' },
  field_of_view: { min: 10, max: 90, unit: '°' },
  min_field_of_view: { min: 10, max: 90, unit: '°' },
  max_field_of_view: { min: 10, max: 90, unit: '°' },
  rotation_speed: { min: -180, max: 180, unit: '° a second' },
  auto_rotate_delay: { min: 0, max: 60_000, unit: ' ms' },
} as const
export type NumberField = keyof typeof RANGES

/** The site's look where neither the slice nor the settings say (docs/3d-models.md, "Light"). */
export const DEFAULT_LOOK: SceneLook = {
  environment: { kind: 'preset', preset: 'neutral' },
  skybox: false,
  exposure: 1,
  toneMapping: 'neutral',
  // Set down, not floating: a shadow under any model unless an editor turns it off.
  shadow: { intensity: 0.6, softness: 0.5 },
}

/** The camera where the slice says nothing. */
export const DEFAULT_CAMERA: SceneCamera = {
  orbit: null,
  target: null,
  fov: 35,
  fovRange: [35, 35],
  limits: { azimuth: [-Infinity, Infinity], polar: [0.1, Math.PI - 0.1], distance: [null, null] },
  rotationSpeed: (15 * Math.PI) / 180,
  rotateDelayMs: 3000,
}

/** The look fields as the Content API gives them (a slice's or the settings'). */
export type LookFields = {
  environment?: string | null
  environment_image?: { url?: string | null; name?: string | null } | null
  skybox?: boolean | null
  exposure?: number | null
  tone_mapping?: string | null
  shadow_intensity?: number | null
  shadow_softness?: number | null
}

/** The camera fields as the Content API gives them. */
export type CameraFields = {
  camera_orbit?: string | null
  camera_target?: string | null
  field_of_view?: number | null
  min_camera_orbit?: string | null
  max_camera_orbit?: string | null
  min_field_of_view?: number | null
  max_field_of_view?: number | null
  rotation_speed?: number | null
  auto_rotate_delay?: number | null
}

/** A Select's words (`soft studio`) as the preset's name (`soft-studio`); null: not one. */
export function presetOf(value: string | null | undefined): EnvironmentPreset | null {
  const name = (value ?? '').trim().toLowerCase().replace(/\s+/g, '-')
  return (ENVIRONMENT_PRESETS as readonly string[]).includes(name)
    ? (name as EnvironmentPreset)
    : null
}

/** A Select's words (`AgX`) as the tone mapping's name; null: not one (`site default`). */
export function toneMappingOf(value: string | null | undefined): ToneMapping | null {
  const name = (value ?? '').trim().toLowerCase()
  return (TONE_MAPPINGS as readonly string[]).includes(name) ? (name as ToneMapping) : null
}

/** The environment files the renderer reads, by their name's extension. */
export const ENVIRONMENT_FILES = /\.(hdr|jpe?g|png|avif)$/i

/**
 * An environment field's file: its URL and its name (else its URL's), as strings whatever a
 * malformed document holds there; empty where there is none.
 */
function environmentFile(image: LookFields['environment_image']): { url: string; name: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  const url = text(image?.url)
  return { url, name: text(image?.name) || url }
}

/** Whether a file name (or URL's path) is a Radiance HDR. */
export const isHdr = (name: string) => /\.hdr$/i.test(name.split(/[?#]/)[0]!)

/** A number field's value within its range (content:check refuses one outside it). */
const within = (field: NumberField, value: number) =>
  Math.min(RANGES[field].max, Math.max(RANGES[field].min, value))

const given = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/**
 * A look from the slice's fields over the site's (`site`, the settings document's, already
 * resolved), over `DEFAULT_LOOK`. `fileUrl` makes a media link's URL one of the site's origin (the
 * renderer asks it for the device's size). A field left empty (or `site default`) takes the
 * site's value.
 */
export function resolveLook(
  fields: LookFields,
  site: SceneLook,
  fileUrl: (url: string) => string | null,
): SceneLook {
  const image = environmentFile(fields.environment_image)
  const file = image.url ? fileUrl(image.url) : null
  const name = image.name
  const preset = presetOf(fields.environment)
  return {
    environment:
      file && ENVIRONMENT_FILES.test(name.split(/[?#]/)[0]!)
        ? { kind: 'file', url: file, hdr: isHdr(name) }
        : preset
          ? { kind: 'preset', preset }
          : site.environment,
    skybox: fields.skybox ?? site.skybox,
    exposure: given(fields.exposure) ? within('exposure', fields.exposure) : site.exposure,
    toneMapping: toneMappingOf(fields.tone_mapping) ?? site.toneMapping,
    shadow: {
      intensity: given(fields.shadow_intensity)
        ? within('shadow_intensity', fields.shadow_intensity)
        : site.shadow.intensity,
      softness: given(fields.shadow_softness)
        ? within('shadow_softness', fields.shadow_softness)
        : site.shadow.softness,
    },
  }
}

/** The site's look: the settings document's fields over `DEFAULT_LOOK`. */
export function siteLook(fields: LookFields, fileUrl: (url: string) => string | null): SceneLook {
  return resolveLook(fields, DEFAULT_LOOK, fileUrl)
}

/** An angle or `auto`, `Infinity`, `-Infinity`: in radians; null for `auto`. */
function limitAngle(part: string): number | null | undefined {
  const lower = part.toLowerCase()
  if (lower === 'auto') return null
  if (lower === 'infinity' || lower === '+infinity') return Infinity
  if (lower === '-infinity') return -Infinity
  const match = /^([+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?)(deg|rad)?$/i.exec(part)
  if (!match) return undefined
  const value = Number(match[1])
  return match[4]?.toLowerCase() === 'rad' ? value : (value * Math.PI) / 180
}

/** One end of the orbit's limits: azimuth, polar angle and distance, each a value or `auto`. */
export type OrbitLimit = { azimuth: number | null; polar: number | null; distance: number | null }

/**
 * `min_camera_orbit` or `max_camera_orbit`, as `<model-viewer>` writes them: `-45deg 30deg 1.5m`,
 * with `auto` (the viewer's own) or `Infinity` for any part (`auto auto 4m`).
 */
export function parseOrbitLimit(text: string | null | undefined): Parsed<OrbitLimit> {
  const value = (text ?? '').trim()
  const found = value.split(/[\s,]+/).filter(Boolean)
  const expected =
    'write the azimuth, the polar angle and the distance, each a value or auto (e.g. -45deg 30deg auto)'
  if (found.length < 1 || found.length > 3) return { ok: false, reason: `"${value}": ${expected}` }
  const [a = 'auto', p = 'auto', d = 'auto'] = found
  const azimuth = limitAngle(a)
  const polar = limitAngle(p)
  if (azimuth === undefined || polar === undefined)
    return {
      ok: false,
      reason: `"${value}": "${azimuth === undefined ? a : p}" is not an angle; ${expected}`,
    }
  if (polar !== null && (polar < 0 || polar > Math.PI))
    return {
      ok: false,
      reason: `"${value}": the polar angle must be between 0deg (from above) and 180deg (from below)`,
    }
  let distance: number | null = null
  if (d.toLowerCase() !== 'auto') {
    const bare = d.replace(/m$/i, '')
    distance = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(bare) ? Number(bare) : NaN
    if (!(distance > 0))
      return { ok: false, reason: `"${value}": "${d}" is not a distance; ${expected}` }
  }
  return { ok: true, value: { azimuth, polar, distance } }
}

/** The camera from the slice's fields over `DEFAULT_CAMERA`; a field that does not parse is left out. */
export function resolveCamera(fields: CameraFields): SceneCamera {
  const orbit = fields.camera_orbit?.trim() ? parseOrbit(fields.camera_orbit) : null
  const target = fields.camera_target?.trim() ? parseVec3(fields.camera_target) : null
  const fov = given(fields.field_of_view)
    ? within('field_of_view', fields.field_of_view)
    : DEFAULT_CAMERA.fov
  // Without a range, zooming moves the camera only; the lens stays the editor's.
  const minFov = given(fields.min_field_of_view)
    ? within('min_field_of_view', fields.min_field_of_view)
    : fov
  const maxFov = given(fields.max_field_of_view)
    ? within('max_field_of_view', fields.max_field_of_view)
    : fov
  const min = fields.min_camera_orbit?.trim() ? parseOrbitLimit(fields.min_camera_orbit) : null
  const max = fields.max_camera_orbit?.trim() ? parseOrbitLimit(fields.max_camera_orbit) : null
  const low = min?.ok ? min.value : null
  const high = max?.ok ? max.value : null
  const d = DEFAULT_CAMERA.limits
  return {
    orbit: orbit?.ok ? orbit.value : null,
    target: target?.ok ? target.value : null,
    fov: Math.min(Math.max(fov, minFov), maxFov),
    fovRange: [Math.min(minFov, maxFov), Math.max(minFov, maxFov)],
    limits: {
      azimuth: [low?.azimuth ?? d.azimuth[0], high?.azimuth ?? d.azimuth[1]],
      polar: [low?.polar ?? d.polar[0], high?.polar ?? d.polar[1]],
      distance: [low?.distance ?? null, high?.distance ?? null],
    },
    rotationSpeed: given(fields.rotation_speed)
      ? (within('rotation_speed', fields.rotation_speed) * Math.PI) / 180
      : DEFAULT_CAMERA.rotationSpeed,
    rotateDelayMs: given(fields.auto_rotate_delay)
      ? within('auto_rotate_delay', fields.auto_rotate_delay)
      : DEFAULT_CAMERA.rotateDelayMs,
  }
}

/** A problem of one field, as `content:check` names it (`is …`). */
export type FieldProblem = { field: string; message: string }

/**
 * Each problem of a slice's (or the settings') look and camera fields beyond their model's own
 * checks (a number's range is its Number field's `min` and `max`, which the models carry as
 * `RANGES` says; a Select's value, one of its options): an orbit, a target or a limit that does
 * not parse, a minimum over its maximum, an environment file that is not HDR, JPEG,
 * PNG or AVIF (whether its bytes can be read is the checker's, which has the file).
 */
export function lookProblems(fields: LookFields & CameraFields): FieldProblem[] {
  const problems: FieldProblem[] = []
  const { url, name } = environmentFile(fields.environment_image)
  if (url && !ENVIRONMENT_FILES.test(name.split(/[?#]/)[0]!))
    problems.push({
      field: 'environment_image',
      message: `is "${name}": an environment is a Radiance HDR (.hdr) or an 8-bit JPEG, PNG or AVIF, equirectangular (twice as wide as high)`,
    })
  if (fields.camera_orbit?.trim()) {
    const orbit = parseOrbit(fields.camera_orbit)
    if (!orbit.ok) problems.push({ field: 'camera_orbit', message: `is ${orbit.reason}` })
  }
  if (fields.camera_target?.trim()) {
    const target = parseVec3(fields.camera_target)
    if (!target.ok) problems.push({ field: 'camera_target', message: `is ${target.reason}` })
  }
  const limits: Partial<Record<'min' | 'max', OrbitLimit>> = {}
  for (const end of ['min', 'max'] as const) {
    const text = fields[`${end}_camera_orbit`]
    if (!text?.trim()) continue
    const parsed = parseOrbitLimit(text)
    if (parsed.ok) limits[end] = parsed.value
    else problems.push({ field: `${end}_camera_orbit`, message: `is ${parsed.reason}` })
  }
  for (const part of ['azimuth', 'polar', 'distance'] as const) {
    const low = limits.min?.[part]
    const high = limits.max?.[part]
    if (low !== null && low !== undefined && high !== null && high !== undefined && low > high)
      problems.push({
        field: 'min_camera_orbit',
        message: `has a ${part} over max_camera_orbit's: the minimum must not pass the maximum`,
      })
  }
  if (
    given(fields.min_field_of_view) &&
    given(fields.max_field_of_view) &&
    fields.min_field_of_view > fields.max_field_of_view
  )
    problems.push({
      field: 'min_field_of_view',
      message: `is ${fields.min_field_of_view}°, over max_field_of_view's ${fields.max_field_of_view}°`,
    })
  return problems
}
