// Maps a slice's fields to the 3D slot's props. Runs on the server; imports no three.js.
import { isFilled, type Content } from '@prismicio/client'
import type { ArSettings } from '@/lib/ar'
import { modelMediaUrl } from '@/lib/content/media-url'
import type { ThreeSlotLabels } from './ThreeSlot'
import { slotWords } from './viewer/words'
import {
  DEFAULT_LOOK,
  resolveCamera,
  resolveLook,
  siteLook,
  type LookFields,
  type SceneLook,
} from '@rules/look'
import type { SceneHotspot, SceneSpec } from './store'
import { parseNormal, parseOrbit, parseVec3 } from '@rules/hotspots'
import { storyKeyframes } from '@rules/story'

type ProceduralSpec = Extract<SceneSpec, { kind: 'procedural' }>

const SHAPES: readonly ProceduralSpec['shape'][] = ['torus-knot', 'icosahedron', 'blob', 'rings']
const MATERIALS: readonly ProceduralSpec['material'][] = ['glass', 'metal', 'clay']
const MOTIONS: readonly ProceduralSpec['motion'][] = ['float', 'spin', 'still']

function pick<T extends string>(value: string | null | undefined, options: readonly T[]): T {
  return options.includes(value as T) ? (value as T) : options[0]
}

/**
 * The model's URL as the page carries it, always on the site's origin so the renderer can add
 * `tier=`: site-relative for the embedded API's media, `/3d-models?src=…` for Prismic's.
 */
function modelUrl(field: Content.HeroSliceModelPrimary['model']): string | null {
  return isFilled.linkToMedia(field) ? modelMediaUrl(field.url) : null
}

/**
 * A model's own animation as the slice asks for it: played unless the editor turned it off (a
 * document written before the field existed has none: played), the clip named, or the first.
 */
function animationOf(primary: { animation?: string | null; play_animation?: boolean | null }) {
  return { animate: primary.play_animation !== false, clip: primary.animation?.trim() || null }
}

/**
 * The site's 3D look, from the settings document's "3D look" tab (look.ts): what every model
 * slice starts from. An environment file is asked for from the site's own origin, as models are.
 */
export function siteLookOf(settings: Content.SettingsDocument): SceneLook {
  return siteLook(settings.data as LookFields, modelMediaUrl)
}

/** A model slice's light, shadow and camera: its fields over the site's look (`site`). */
function artDirection(primary: object, site: SceneLook) {
  return {
    look: resolveLook(primary as LookFields, site, modelMediaUrl),
    camera: resolveCamera(primary),
  }
}

/** A text field as the slot shows it: the editor's words, else the default (`or`). */
const text = (field: string | null | undefined, or: string) => field?.trim() || or

/** A 3D slot's props, as the slices give them to `ThreeSlot`. */
type SlotProps = { spec: SceneSpec | null; description: string; labels: ThreeSlotLabels }

/** The words every 3D slot has: its Save-Data button, its failure, its pause and play. */
function slotLabels(
  p: {
    load_label?: string | null
    error_message?: string | null
    pause_label?: string | null
    play_label?: string | null
  },
  lang: string,
) {
  const words = slotWords(lang)
  return {
    load: p.load_label ?? '',
    error: text(p.error_message, words.failed),
    pause: text(p.pause_label, words.pause),
    play: text(p.play_label, words.play),
  }
}

/** The props of the hero's 3D slot, for either variation; `lang` gives empty fields' words. */
export function heroSlot(
  slice: Content.HeroSlice,
  lang: string,
  site: SceneLook = DEFAULT_LOOK,
): SlotProps {
  const p = slice.primary
  const labels = slotLabels(p, lang)
  const description = p.scene_description ?? ''
  if (slice.variation === 'model') {
    const { model, color_background, auto_rotate } = slice.primary
    const url = modelUrl(model)
    return {
      spec: url
        ? {
            kind: 'model',
            url,
            background: color_background || null,
            autoRotate: auto_rotate,
            ...animationOf(slice.primary),
            ...artDirection(slice.primary, site),
          }
        : null,
      description,
      labels,
    }
  }
  const { shape, color_primary, color_secondary, material, motion, speed } = slice.primary
  return {
    spec: {
      kind: 'procedural',
      shape: pick(shape, SHAPES),
      colorPrimary: color_primary || '#3d3adb',
      colorSecondary: color_secondary || '#ffb86b',
      material: pick(material, MATERIALS),
      motion: pick(motion, MOTIONS),
      speed: Math.min(3, Math.max(0.1, speed ?? 1)),
    },
    description,
    labels,
  }
}

/**
 * The words of a viewer's row of material variants: its name for screen readers, and the
 * editor's label for each variant the model names (a row without both is none). None when the
 * editor wrote none: the row then shows the model's own names, unnamed.
 */
function finishes(p: Content.ModelViewerSlice['primary']): {
  variantsLabel?: string
  variantLabels?: Record<string, string>
} {
  const label = p.variants_label?.trim()
  const labels = Object.fromEntries(
    (p.variant_labels ?? []).flatMap((row) => {
      const name = row.name?.trim()
      const text = row.label?.trim()
      return name && text ? [[name, text]] : []
    }),
  )
  return {
    ...(label ? { variantsLabel: label } : {}),
    ...(Object.keys(labels).length ? { variantLabels: labels } : {}),
  }
}

/** The props of the model viewer's 3D slot; `lang` gives empty fields' words. */
export function viewerSlot(
  slice: Content.ModelViewerSlice,
  lang: string,
  site: SceneLook = DEFAULT_LOOK,
): SlotProps {
  const p = slice.primary
  const words = slotWords(lang)
  const url = modelUrl(p.model)
  // A zoom hint the editor wrote is shown on every keyboard; the default names ⌘ on a Mac.
  const zoomHint = p.zoom_hint?.trim()
  return {
    spec: url
      ? {
          kind: 'viewer',
          url,
          autoRotate: p.auto_rotate,
          ...animationOf(p),
          ...finishes(p),
          ...artDirection(p, site),
        }
      : null,
    description: p.description ?? '',
    labels: {
      ...slotLabels(p, lang),
      loading: p.loading_label ?? undefined,
      hint: p.controls_hint ?? undefined,
      view: {
        turnLeft: text(p.turn_left_label, words.turnLeft),
        turnRight: text(p.turn_right_label, words.turnRight),
        tiltUp: text(p.tilt_up_label, words.tiltUp),
        tiltDown: text(p.tilt_down_label, words.tiltDown),
        zoomIn: text(p.zoom_in_label, words.zoomIn),
        zoomOut: text(p.zoom_out_label, words.zoomOut),
        reset: text(p.reset_label, words.reset),
        zoomHint: zoomHint || words.zoomHint,
        zoomHintMac: zoomHint || words.zoomHintMac,
        live: text(p.live_message, words.live),
        resetDone: text(p.reset_message, words.resetDone),
      },
    },
  }
}

/**
 * What the model viewer slice asks of AR ("View in your room"), or why it offers none: `off`
 * when the editor did not turn it on (documents written before the fields existed read false),
 * `incomplete` when it is on but a field it needs is empty (editors see why in a preview).
 */
export function viewerAr(
  slice: Content.ModelViewerSlice,
  site: SceneLook = DEFAULT_LOOK,
):
  | { state: 'on'; model: string; settings: ArSettings }
  | { state: 'off' }
  | { state: 'incomplete'; reason: string } {
  const p = slice.primary
  if (p.ar !== true) return { state: 'off' }
  const model = modelUrl(p.model)
  if (!model)
    return { state: 'incomplete', reason: 'AR is on, but the slice has no model (model).' }
  const label = p.ar_label?.trim()
  if (!label)
    return {
      state: 'incomplete',
      reason: 'AR is on, but the button has no label (ar_label): no button shows.',
    }
  return {
    state: 'on',
    model,
    settings: {
      label,
      placement: p.ar_placement === 'wall' ? 'wall' : 'floor',
      resizable: p.ar_resize === true,
      title: (p.heading ?? '').trim() || (p.description ?? '').trim(),
      look: (({ environment, exposure, toneMapping }) => ({ environment, exposure, toneMapping }))(
        resolveLook(p as LookFields, site, modelMediaUrl),
      ),
    },
  }
}

/** One hotspot's words, and where it is pinned on the model (null: it cannot be). */
export type HotspotNote = {
  label: string
  detail: Content.ModelViewerSliceDefaultPrimaryHotspotsItem['detail']
  /** The id of its detail in the list under the viewer. */
  detailId: string
  /** What the renderer needs to pin it; null without a label, position or normal that parse. */
  pin: SceneHotspot | null
}

/**
 * The model viewer's hotspots as the page lists them: each that has a label or a detail, in the
 * editor's order (a row left empty in Slice Machine is none), each detail's id made from `idBase`.
 * A hotspot whose label, position or normal is missing or does not parse keeps its words in the
 * list, but gets no button on the model (content:check names it).
 */
export function viewerHotspots(
  slice: Content.ModelViewerSlice,
  idBase = 'hotspot',
): {
  heading: string
  notes: HotspotNote[]
} {
  const p = slice.primary
  const notes = (p.hotspots ?? [])
    .filter((item) => !!item.label?.trim() || isFilled.richText(item.detail))
    .map((item, i): HotspotNote => {
      const label = item.label?.trim() ?? ''
      const detailId = `${idBase}-${i + 1}`
      const position = parseVec3(item.position)
      const normal = parseNormal(item.normal)
      const view = item.view?.trim() ? parseOrbit(item.view) : null
      const pin =
        label && position.ok && normal.ok
          ? {
              label,
              detailId,
              position: position.value,
              normal: normal.value,
              view: view?.ok ? view.value : null,
            }
          : null
      return { label, detail: item.detail ?? [], detailId, pin }
    })
  return { heading: p.hotspots_heading?.trim() ?? '', notes }
}

/**
 * The props of a story's stage (src/slices/ScrollStory): its model, lit and framed by the slice's
 * art direction, and its steps' keyframes. Nothing moves by itself: no auto-rotate, no clip
 * played (each is scrubbed by the scroll). `lang` gives empty fields' words.
 */
export function storySlot(
  slice: Content.ScrollStorySlice,
  lang: string,
  site: SceneLook = DEFAULT_LOOK,
): SlotProps {
  const p = slice.primary
  const url = modelUrl(p.model)
  const art = artDirection(p, site)
  const story = storyKeyframes(p.steps ?? [], {
    target: art.camera.target,
    fov: art.camera.fov,
    exposure: art.look.exposure,
  })
  return {
    spec:
      url && story.length
        ? {
            kind: 'model',
            url,
            // The stage's colour is the page's (the story's steps may change it: Story.tsx).
            background: null,
            autoRotate: false,
            animate: false,
            clip: null,
            story,
            ...art,
          }
        : null,
    description: p.description ?? '',
    labels: slotLabels(p, lang),
  }
}
