import type { Content } from '@prismicio/client'
import { describe, expect, it } from 'vitest'
import { heroSlot, viewerHotspots, viewerSlot } from '../../src/three/fields'

const model = {
  link_type: 'Media',
  kind: 'file',
  name: 'chair.glb',
  url: 'https://cdn.example/chair.glb',
  size: '1',
}

function viewer(primary: Record<string, unknown>, lang = 'en-us') {
  return viewerSlot(
    {
      slice_type: 'model_viewer',
      variation: 'default',
      primary: { model, auto_rotate: false, ...primary },
      items: [],
    } as unknown as Content.ModelViewerSlice,
    lang,
  )
}

describe("a model's animation, as the slice asks for it", () => {
  it('plays the first clip unless the slice names one', () => {
    expect(viewer({ animation: null, play_animation: true }).spec).toMatchObject({
      animate: true,
      clip: null,
    })
    expect(viewer({ animation: '  Walk ', play_animation: true }).spec).toMatchObject({
      animate: true,
      clip: 'Walk',
    })
  })

  it('stays still when the editor turned autoplay off', () => {
    expect(viewer({ animation: 'Walk', play_animation: false }).spec).toMatchObject({
      animate: false,
    })
  })

  it('plays in a document written before the fields existed', () => {
    expect(viewer({}).spec).toMatchObject({ animate: true, clip: null })
  })

  it("applies to the hero's model scene too", () => {
    const hero = heroSlot(
      {
        slice_type: 'hero',
        variation: 'model',
        primary: { model, auto_rotate: true, animation: 'Sway', play_animation: true },
        items: [],
      } as unknown as Content.HeroSlice,
      'en-us',
    )
    expect(hero.spec).toMatchObject({ kind: 'model', animate: true, clip: 'Sway' })
  })
})

describe("the model viewer's hotspots, as the page lists them", () => {
  const slice = (primary: Record<string, unknown>) =>
    ({
      slice_type: 'model_viewer',
      variation: 'default',
      primary: { model, ...primary },
      items: [],
    }) as unknown as Content.ModelViewerSlice
  const detail = (text: string) => [{ type: 'paragraph', text, spans: [] }]

  it('lists each with words, in order, and skips a row left empty', () => {
    expect(
      viewerHotspots(
        slice({
          hotspots_heading: ' Details ',
          hotspots: [
            { label: ' Joint ', detail: detail('Holds.'), position: 'x', normal: null, view: null },
            { label: null, detail: [], position: null, normal: null, view: null },
            { label: '', detail: detail('No label, still read.'), position: '0 0 0' },
            { label: 'Base', detail: [], position: '0 0 0', normal: '0 2 0', view: '30deg 90deg' },
          ],
        }),
        'viewer-1-hotspots',
      ),
    ).toEqual({
      heading: 'Details',
      // Only a hotspot with a label, a position and a normal is pinned on the model (a button).
      notes: [
        { label: 'Joint', detail: detail('Holds.'), detailId: 'viewer-1-hotspots-1', pin: null },
        {
          label: '',
          detail: detail('No label, still read.'),
          detailId: 'viewer-1-hotspots-2',
          pin: null,
        },
        {
          label: 'Base',
          detail: [],
          detailId: 'viewer-1-hotspots-3',
          pin: {
            label: 'Base',
            detailId: 'viewer-1-hotspots-3',
            position: [0, 0, 0],
            normal: [0, 1, 0],
            view: { azimuth: Math.PI / 6, polar: Math.PI / 2, distance: null },
          },
        },
      ],
    })
  })

  it('lists none for a document written before the field existed', () => {
    expect(viewerHotspots(slice({}))).toEqual({ heading: '', notes: [] })
  })
})

describe("the model viewer's finishes (material variants), as the slice words them", () => {
  it('names the row and relabels each variant the editor named, skipping a half-filled row', () => {
    expect(
      viewer({
        variants_label: ' Shade ',
        variant_labels: [
          { name: 'Red ', label: ' Signal red' },
          { name: 'White', label: '' },
          { name: null, label: 'Orphan' },
        ],
      }).spec,
    ).toMatchObject({ variantsLabel: 'Shade', variantLabels: { Red: 'Signal red' } })
  })

  it("leaves the model's own names, and no row name, for a document written before the fields existed", () => {
    const spec = viewer({}).spec!
    expect(spec).not.toHaveProperty('variantsLabel')
    expect(spec).not.toHaveProperty('variantLabels')
  })
})

describe("the viewer's buttons and messages, as the slice words them", () => {
  it("uses the editor's words, trimmed, for each button, the hint and the messages", () => {
    const { labels } = viewer({
      turn_left_label: ' Turn the chair left ',
      zoom_in_label: 'Closer',
      reset_label: 'Back to the start',
      pause_label: 'Stop turning',
      play_label: 'Turn again',
      zoom_hint: 'Ctrl and the wheel zoom the chair',
      live_message: 'The chair is ready.',
      reset_message: 'Back.',
      error_message: 'No chair today.',
    })
    expect(labels).toMatchObject({
      pause: 'Stop turning',
      play: 'Turn again',
      error: 'No chair today.',
      view: {
        turnLeft: 'Turn the chair left',
        zoomIn: 'Closer',
        reset: 'Back to the start',
        // The editor's hint is shown on every keyboard.
        zoomHint: 'Ctrl and the wheel zoom the chair',
        zoomHintMac: 'Ctrl and the wheel zoom the chair',
        live: 'The chair is ready.',
        resetDone: 'Back.',
      },
    })
  })

  it('gives every button and message words in the page’s language where a field is empty, as in a document written before the fields existed', () => {
    const en = viewer({}).labels
    expect(en.view).toMatchObject({
      turnLeft: 'Turn left',
      zoomOut: 'Zoom out',
      reset: 'Reset view',
    })
    expect(en.view!.zoomHint).toMatch(/Ctrl/)
    expect(en.view!.zoomHintMac).toMatch(/⌘/)
    expect(en.pause).toBe('Pause the motion')
    const fr = viewer({ turn_left_label: '   ' }, 'fr-fr').labels
    expect(fr.view).toMatchObject({ turnLeft: 'Tourner à gauche', reset: 'Réinitialiser la vue' })
    expect(fr.play).toBe('Relancer le mouvement')
    expect(fr.error).toMatch(/^Le modèle 3D/)
  })

  it("gives the hero's pause button its words too", () => {
    const hero = heroSlot(
      {
        slice_type: 'hero',
        variation: 'default',
        primary: { pause_label: 'Hold the knot' },
        items: [],
      } as unknown as Content.HeroSlice,
      'fr-fr',
    )
    expect(hero.labels).toMatchObject({ pause: 'Hold the knot', play: 'Relancer le mouvement' })
  })
})
