// Each art direction setting (rules/look.ts) at the two ends of its range, for the tests that
// check its effect on the drawn stage (three-look.spec.ts, the engines) and for
// `npm run bench:look`, which measures it and draws docs/3d-models.md's pictures. A setting is
// applied to the showcase's viewer through the debug hook's `respec` (`?debug3d`), as a preview's
// new content would reach it; some then need the visitor to act (turn, zoom) or time to pass.
import type { SceneCamera, SceneLook } from '../../../rules/look'

/** Parts of a slot's look and camera, as the debug hook's `respec` takes them. */
export type LookPatch = { look?: Partial<SceneLook>; camera?: Partial<SceneCamera> }
type Patch = LookPatch

/** A setting's end over its base. */
export function merged(base: LookPatch | undefined, patch: LookPatch): LookPatch {
  return { look: { ...base?.look, ...patch.look }, camera: { ...base?.camera, ...patch.camera } }
}

/** What the visitor does after a setting is applied, before the stage is read. */
export type LookAction =
  /** Nothing: the stage as the setting draws it. */
  | { kind: 'none' }
  /** Presses a view button `times` times (`?debug3d` hook's commands, as the buttons send). */
  | { kind: 'press'; button: 'turnLeft' | 'zoomIn'; times: number }
  /** Lets `ms` pass with motion playing (`?debug3d=motion`), from the stage read just before. */
  | { kind: 'wait'; ms: number }
  /** Turns once, then lets `ms` pass (auto-rotate's delay after the visitor lets go). */
  | { kind: 'turn-then-wait'; ms: number }

/**
 * The least share of the stage's pixels a setting must change from one end to the other (or over
 * its wait): a setting that does nothing changes none (two draws of one setting are the same,
 * pixel for pixel), and the smallest here, a lamp's shadow seen from above, changes about 0.3 %.
 */
export const LOOK_CHANGE_MIN = 0.002

export type LookSetting = {
  /** The setting, as docs/3d-models.md names it. */
  name: string
  /** The slice's field. */
  field: string
  /** Where both ends start from (a setting that shows only on top of another). */
  base?: Patch
  ends: [{ label: string; patch: Patch }, { label: string; patch: Patch }]
  action: LookAction
}

const preset = (name: 'neutral' | 'soft-studio' | 'contrast-studio' | 'outdoor') =>
  ({ kind: 'preset', preset: name }) as const

/** The sample HDR, as the showcase's slice names it (the page's own URL for it is used). */
export const SAMPLE_HDR = 'environments/studio.hdr'

/** The settings, each from one end of its range to the other. `hdr`: the sample HDR's URL. */
export function lookSettings(hdr: string): LookSetting[] {
  const file = { kind: 'file', url: hdr, hdr: true } as const
  const still = { kind: 'none' } as const
  return [
    {
      name: 'environment: preset',
      field: 'environment',
      ends: [
        { label: 'neutral', patch: { look: { environment: preset('neutral') } } },
        { label: 'outdoor', patch: { look: { environment: preset('outdoor') } } },
      ],
      action: still,
    },
    {
      name: 'environment: studio presets',
      field: 'environment',
      ends: [
        { label: 'soft studio', patch: { look: { environment: preset('soft-studio') } } },
        { label: 'contrast studio', patch: { look: { environment: preset('contrast-studio') } } },
      ],
      action: still,
    },
    {
      name: 'environment: uploaded HDR',
      field: 'environment_image',
      ends: [
        { label: 'neutral', patch: { look: { environment: preset('neutral') } } },
        { label: 'studio.hdr', patch: { look: { environment: file } } },
      ],
      action: still,
    },
    {
      name: 'skybox',
      field: 'skybox',
      base: { look: { environment: file } },
      ends: [
        { label: 'off', patch: { look: { skybox: false } } },
        { label: 'on', patch: { look: { skybox: true } } },
      ],
      action: still,
    },
    {
      name: 'exposure',
      field: 'exposure',
      ends: [
        { label: '0.1', patch: { look: { exposure: 0.1 } } },
        { label: '4', patch: { look: { exposure: 4 } } },
      ],
      action: still,
    },
    {
      name: 'tone mapping',
      field: 'tone_mapping',
      // Bright, where the curves part most.
      base: { look: { exposure: 3 } },
      ends: [
        { label: 'neutral', patch: { look: { toneMapping: 'neutral' } } },
        { label: 'AgX', patch: { look: { toneMapping: 'agx' } } },
      ],
      action: still,
    },
    {
      name: 'shadow intensity',
      field: 'shadow_intensity',
      // Seen from above: the lamp's round base stands on most of its shadow.
      base: { camera: { orbit: orbit(20, 35) } },
      ends: [
        { label: '0', patch: { look: { shadow: { intensity: 0, softness: 0.3 } } } },
        { label: '1', patch: { look: { shadow: { intensity: 1, softness: 0.3 } } } },
      ],
      action: still,
    },
    {
      name: 'shadow softness',
      field: 'shadow_softness',
      base: { camera: { orbit: orbit(20, 35) } },
      ends: [
        { label: '0', patch: { look: { shadow: { intensity: 1, softness: 0 } } } },
        { label: '1', patch: { look: { shadow: { intensity: 1, softness: 1 } } } },
      ],
      action: still,
    },
    {
      name: 'starting view',
      field: 'camera_orbit',
      ends: [
        { label: '-90deg 60deg', patch: { camera: { orbit: orbit(-90, 60) } } },
        { label: '90deg 60deg', patch: { camera: { orbit: orbit(90, 60) } } },
      ],
      action: still,
    },
    {
      name: 'target',
      field: 'camera_target',
      ends: [
        { label: 'automatic', patch: { camera: { target: null } } },
        { label: '0 1.8 0', patch: { camera: { target: [0, 1.8, 0] } } },
      ],
      action: still,
    },
    {
      name: 'field of view',
      field: 'field_of_view',
      ends: [
        { label: '10°', patch: { camera: { fov: 10, fovRange: [10, 10] } } },
        { label: '90°', patch: { camera: { fov: 90, fovRange: [90, 90] } } },
      ],
      action: still,
    },
    {
      name: 'orbit limits (4 turns left)',
      field: 'max_camera_orbit',
      ends: [
        // The slice's own limits (its azimuth is `auto`): no patch, and no Infinity to send to the
        // page (WebDriver BiDi's arguments carry it as null).
        { label: 'unlimited', patch: {} },
        { label: 'azimuth -180deg to 0deg', patch: { camera: { limits: limits(-180, 0) } } },
      ],
      action: { kind: 'press', button: 'turnLeft', times: 4 },
    },
    {
      name: 'field of view range (8 zooms in)',
      field: 'min_field_of_view',
      ends: [
        { label: '30° to 30°', patch: { camera: { fov: 30, fovRange: [30, 30] } } },
        { label: '10° to 30°', patch: { camera: { fov: 30, fovRange: [10, 30] } } },
      ],
      action: { kind: 'press', button: 'zoomIn', times: 8 },
    },
    {
      name: 'rotation speed (1 s)',
      field: 'rotation_speed',
      // At once after the reset that starts each end (the showcase waits 2 s after a press).
      base: { camera: { rotateDelayMs: 0 } },
      ends: [
        { label: '0°/s', patch: { camera: { rotationSpeed: 0 } } },
        { label: '90°/s', patch: { camera: { rotationSpeed: Math.PI / 2 } } },
      ],
      action: { kind: 'wait', ms: 1000 },
    },
    {
      name: 'auto-rotate delay (a turn, then 1.5 s)',
      field: 'auto_rotate_delay',
      base: { camera: { rotationSpeed: Math.PI / 2 } },
      ends: [
        { label: '60000 ms', patch: { camera: { rotateDelayMs: 60_000 } } },
        { label: '0 ms', patch: { camera: { rotateDelayMs: 0 } } },
      ],
      action: { kind: 'turn-then-wait', ms: 1500 },
    },
  ]
}

function orbit(azimuth: number, polar: number) {
  return { azimuth: (azimuth * Math.PI) / 180, polar: (polar * Math.PI) / 180, distance: null }
}

function limits(minAzimuth: number, maxAzimuth: number): SceneCamera['limits'] {
  return {
    azimuth: [(minAzimuth * Math.PI) / 180, (maxAzimuth * Math.PI) / 180],
    polar: [0.1, Math.PI - 0.1],
    distance: [null, null],
  }
}

type Hook = {
  frames: number
  calls: number
  revisions: Record<string, number>
  respec: (stage: Element, patch: LookPatch) => number
}

/**
 * Gives the slot whose stage `selector` names the art direction `patch` (over the slice's own,
 * through `?debug3d`'s respec) and resolves once a frame has been drawn with it: its environment
 * loaded, its shadow and framing applied (the renderer reports the revision with the frame it
 * draws once all of them are). Runs in the page (any engine's driver can send it).
 */
export async function applyLookInPage({
  selector,
  patch,
}: {
  selector: string
  patch: LookPatch
}): Promise<void> {
  const hook = (window as unknown as { __facet3d: Hook }).__facet3d
  const revision = hook.respec(document.querySelector(selector)!, patch)
  const start = performance.now()
  while (!Object.values(hook.revisions).includes(revision)) {
    if (performance.now() - start > 20_000) throw new Error(`respec ${revision} not drawn in 20 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Resolves once the renderer has drawn `count` frames more (a command's, say). */
export async function framesDrawn(count = 1): Promise<void> {
  const hook = (window as unknown as { __facet3d: Hook }).__facet3d
  const frames = hook.frames
  const start = performance.now()
  while (hook.frames < frames + count && performance.now() - start < 20_000)
    await new Promise((resolve) => setTimeout(resolve, 20))
}
