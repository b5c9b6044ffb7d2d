import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkModels } from '@services/content-api/models-check'
import { checkStories } from '@services/content-api/story-check'
import { checkFolder } from '@services/content-api/validate'
import {
  mixColour,
  storyKeyframes,
  storyLimits,
  storyPose,
  storyProgress,
  storyStepProblems,
  storyViewFields,
  turnedPose,
  type StoryEdit,
  type StoryFrame,
} from '@rules/story'
import { parseOrbit, parseVec3 } from '@rules/hotspots'
import { resolveCamera } from '@rules/look'

/**
 * A story told by scroll (rules/story.ts): the steps an editor writes, the pose the
 * stage shows at each place between them, where the visitor is from the steps' positions, and
 * what `content:check` refuses, naming the document, the slice and the step.
 */

const degrees = (d: number) => (d * Math.PI) / 180

const frame = (azimuth: number, over: Partial<StoryFrame> = {}): StoryFrame => ({
  azimuth: degrees(azimuth),
  polar: degrees(70),
  distance: 3,
  target: [0, 0.5, 0],
  fov: 30,
  clip: null,
  time: 0,
  variant: null,
  exposure: 1,
  ...over,
})

describe('the steps an editor writes', () => {
  it('takes what a step leaves empty from the step before, the first from the slice', () => {
    const frames = storyKeyframes(
      [
        { view: '0deg 75deg 3m', clip: 'Explode', variant: 'Sand' },
        { view: '', time: 1, field_of_view: 20 },
        { view: 'nonsense', exposure: 9 },
      ],
      { target: [0, 1, 0], fov: 30, exposure: 1.2 },
    )
    expect(frames.map((f) => [f.orbit?.distance, f.clip, f.variant, f.fov, f.time])).toEqual([
      [3, 'Explode', 'Sand', 30, 0],
      [3, 'Explode', 'Sand', 20, 1],
      // A view that does not parse is the step before's (content:check names it); the time is
      // the step's own (0 when empty), the exposure its range's most.
      [3, 'Explode', 'Sand', 20, 0],
    ])
    expect(frames[2]!.exposure).toBe(4)
    expect(frames[0]!.target).toEqual([0, 1, 0])
    expect(frames[0]!.exposure).toBe(1.2)
  })
})

describe('the pose between two steps', () => {
  it('is a step’s own view at the step, and the same picture at a place however it was reached', () => {
    const frames = [frame(0), frame(90, { time: 1, clip: 'Explode' }), frame(-45)]
    expect(storyPose(frames, 0).azimuth).toBeCloseTo(0)
    expect(storyPose(frames, 1).azimuth).toBeCloseTo(degrees(90))
    expect(storyPose(frames, 2).azimuth).toBeCloseTo(degrees(-45))
    // Before the first and after the last: the ends.
    expect(storyPose(frames, -3)).toEqual(storyPose(frames, 0))
    expect(storyPose(frames, 7)).toEqual(storyPose(frames, 2))
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2, noNaN: true }), (place) => {
        expect(storyPose(frames, place)).toEqual(storyPose([...frames], place))
      }),
    )
  })

  it('turns the short way round, and eases in and out of each step', () => {
    const pose = storyPose([frame(170), frame(-170)], 0.5)
    // From 170° to -170° is 20° through 180°, not 340° through the front.
    expect(Math.abs(Math.cos(pose.azimuth) + 1)).toBeLessThan(1e-9)
    const near = storyPose([frame(0), frame(90)], 0.1).azimuth
    expect(near).toBeLessThan(degrees(9) / 2)
  })

  it('keeps the camera at its distances from the target on the way: it never passes through the model', () => {
    const frames = [frame(0, { distance: 2 }), frame(180, { distance: 4 })]
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (place) => {
        const { distance } = storyPose(frames, place)
        expect(distance).toBeGreaterThanOrEqual(2 - 1e-9)
        expect(distance).toBeLessThanOrEqual(4 + 1e-9)
      }),
    )
  })

  it('scrubs the clip with the scroll, and shows the nearer step’s finish', () => {
    const frames = [
      frame(0, { clip: 'Explode', time: 0, variant: 'Sand' }),
      frame(0, { clip: 'Explode', time: 1, variant: 'Moss' }),
    ]
    expect(storyPose(frames, 0.25).time).toBeCloseTo(0.25)
    expect(storyPose(frames, 0.75).time).toBeCloseTo(0.75)
    expect(storyPose(frames, 0.49).variant).toBe('Sand')
    expect(storyPose(frames, 0.5).variant).toBe('Moss')
  })
})

describe('copy this view', () => {
  it('gives fields that a step reads back as the same camera, to the rounding an editor sees', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: 0.05, max: 3.1, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.tuple(...[0, 1, 2].map(() => fc.double({ min: -5, max: 5, noNaN: true }))),
        fc.double({ min: 10, max: 90, noNaN: true }),
        (azimuth, polar, distance, target, fov) => {
          const fields = storyViewFields({
            azimuth,
            polar,
            distance,
            target: target as [number, number, number],
            fov,
          })
          const [step] = storyKeyframes(
            [{ view: fields.view, target: fields.target, field_of_view: fields.field_of_view }],
            { target: null, fov: 35, exposure: 1 },
          )
          const orbit = step!.orbit!
          const turn = Math.atan2(
            Math.sin(orbit.azimuth - azimuth),
            Math.cos(orbit.azimuth - azimuth),
          )
          expect(Math.abs(turn)).toBeLessThan(degrees(0.051))
          expect(Math.abs(orbit.polar - polar)).toBeLessThan(degrees(0.051))
          expect(Math.abs(orbit.distance! - distance)).toBeLessThanOrEqual(0.005 + 1e-9)
          step!.target!.forEach((value, k) =>
            expect(Math.abs(value - target[k]!)).toBeLessThanOrEqual(0.0005 + 1e-9),
          )
          expect(Math.abs(step!.fov - fov)).toBeLessThanOrEqual(0.05 + 1e-9)
        },
      ),
    )
  })

  it('keeps an editor’s turn inside the slice’s limits, so content:check takes the copied view, and a drag past a limit comes back at once', () => {
    const limitFields = fc.record({
      min_camera_orbit: fc.constantFrom('', 'auto 20deg 1.5m', '-60deg 30deg auto', 'auto auto 2m'),
      max_camera_orbit: fc.constantFrom('', 'auto 100deg 6m', '60deg 120deg auto', 'auto auto 8m'),
    })
    const edit = fc.oneof(
      fc.record({ type: fc.constant('rotate'), by: fc.double({ min: -4, max: 4, noNaN: true }) }),
      fc.record({ type: fc.constant('tilt'), by: fc.double({ min: -4, max: 4, noNaN: true }) }),
      fc.record({ type: fc.constant('zoom'), by: fc.double({ min: 0.2, max: 5, noNaN: true }) }),
    )
    fc.assert(
      fc.property(
        limitFields,
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: 35, max: 95, noNaN: true }),
        fc.double({ min: 2, max: 5, noNaN: true }),
        fc.array(edit, { minLength: 1, maxLength: 12 }),
        (fields, azimuth, polar, distance, edits) => {
          const limits = resolveCamera(fields).limits
          // A step's own view inside the limits, as content:check has it.
          const pose = frame(azimuth, { polar: degrees(polar), distance })
          let kept: StoryEdit = { azimuth: 0, polar: 0, scale: 1 }
          for (const e of edits) {
            const asked =
              e.type === 'rotate'
                ? { ...kept, azimuth: kept.azimuth + e.by }
                : e.type === 'tilt'
                  ? { ...kept, polar: kept.polar + e.by }
                  : { ...kept, scale: kept.scale * e.by }
            kept = turnedPose(pose, asked, limits).edit
          }
          const turned = turnedPose(pose, kept, limits).pose
          const copied = storyViewFields(turned)
          expect(storyStepProblems(copied, storyLimits(fields), null)).toEqual([])
          // The kept edit is the one drawn: nothing piled up past a limit.
          expect(turnedPose(pose, kept, limits).edit.polar).toBeCloseTo(kept.polar, 9)
          expect(turnedPose(pose, kept, limits).edit.scale).toBeCloseTo(kept.scale, 9)
        },
      ),
    )
    // Tilted far past the top, then back a little: the stage moves back at once.
    const limits = resolveCamera({ min_camera_orbit: 'auto 20deg auto' }).limits
    const pose = frame(0)
    const over = turnedPose(pose, { azimuth: 0, polar: -10, scale: 1 }, limits)
    expect(over.pose.polar).toBeCloseTo(degrees(20), 9)
    const back = turnedPose(pose, { ...over.edit, polar: over.edit.polar + 0.1 }, limits)
    expect(back.pose.polar).toBeCloseTo(degrees(20) + 0.1, 9)
    // No edit, no change, even for a pose past a limit.
    expect(
      turnedPose(frame(0, { polar: 0.05 }), { azimuth: 0, polar: 0, scale: 1 }, limits).pose,
    ).toEqual(frame(0, { polar: 0.05 }))
  })

  it('writes the syntax of the steps’ own fields', () => {
    expect(
      storyViewFields({
        azimuth: degrees(390),
        polar: degrees(75),
        distance: 4,
        target: [0, 0.25, -0.0001],
        fov: 35,
      }),
    ).toEqual({ view: '30deg 75deg 4m', target: '0 0.25 0', field_of_view: 35 })
    expect(parseOrbit('30deg 75deg 4m').ok && parseVec3('0 0.25 0').ok).toBe(true)
  })
})

describe('where the visitor is', () => {
  it('is a step’s index when its middle is on the line, and between them in proportion', () => {
    const middles = [100, 500, 900]
    expect(storyProgress(middles, 50)).toBe(0)
    expect(storyProgress(middles, 100)).toBe(0)
    expect(storyProgress(middles, 300)).toBeCloseTo(0.5)
    expect(storyProgress(middles, 900)).toBe(2)
    expect(storyProgress(middles, 2000)).toBe(2)
    expect(storyProgress([100], 400)).toBe(0)
  })

  it('with reduced motion, is the nearest step: a still that changes at the boundary', () => {
    expect(storyProgress([100, 500], 290, true)).toBe(0)
    expect(storyProgress([100, 500], 310, true)).toBe(1)
  })

  it('mixes the stage’s colour between two steps', () => {
    expect(mixColour('#000000', '#ffffff', 0)).toBe('#000000')
    expect(mixColour('#000000', '#ffffff', 1)).toBe('#ffffff')
    expect(mixColour('#000000', '#ffffff', 0.5)).toBe('#808080')
    expect(mixColour(null, '#ffffff', 0.2)).toBe(null)
  })
})

describe('content:check', () => {
  const model = { clips: ['Explode'], variants: ['Sand', 'Moss'] }
  const limits = storyLimits({
    min_camera_orbit: 'auto 20deg 1.5m',
    max_camera_orbit: 'auto 100deg 6m',
  })

  it('refuses a view outside the slice’s limits, a clip or a finish the model lacks', () => {
    const problems = (step: Parameters<typeof storyStepProblems>[0]) =>
      storyStepProblems(step, limits, model).map((p) => `${p.field} ${p.message}`)
    expect(problems({ view: '30deg 70deg 3m', clip: 'Explode', variant: 'Moss' })).toEqual([])
    expect(problems({ view: '30deg 10deg 3m' })).toEqual([
      `view is "30deg 10deg 3m": its polar 10deg is under the slice's min_camera_orbit (20deg)`,
    ])
    expect(problems({ view: '30deg 70deg 9m' })).toEqual([
      `view is "30deg 70deg 9m": its distance 9m is over the slice's max_camera_orbit (6m)`,
    ])
    expect(problems({ view: 'up' })[0]).toMatch(/^view is "up"/)
    expect(problems({ clip: 'Assemble' })).toEqual([
      `clip is "Assemble", which the model does not have (it has "Explode")`,
    ])
    expect(problems({ variant: 'Blue' })).toEqual([
      `variant is "Blue", which the model does not have (its finishes: "Sand", "Moss")`,
    ])
    expect(storyStepProblems({ clip: 'Explode' }, limits, { clips: [], variants: [] })).toEqual([
      { field: 'clip', message: 'is "Explode", but the model has no animation' },
    ])
  })

  it('names the document, the slice and the step of the sample story’s problems', async () => {
    const checked = checkFolder('content', '.')
    const models = await checkModels('content')
    expect(checkStories([checked.store], models)).toEqual([])
    const entry = checked.store.documents.find(
      (d) => d.doc.type === 'page' && d.doc.uid === 'story' && d.doc.lang === 'en-us',
    )!
    const copy = structuredClone(entry.doc)
    const slice = (copy.data as { slices: { primary: { steps: Record<string, unknown>[] } }[] })
      .slices[0]!
    slice.primary.steps[2]!.clip = 'Assemble'
    const problems = checkStories(
      [{ ...checked.store, documents: [{ ...entry, doc: copy }] }],
      models,
    )
    expect(problems).toEqual([
      {
        file: entry.file,
        path: '$.data.slices[0].primary.steps[2].clip',
        message: `(slice scroll_story, step 3) is "Assemble", which the model does not have (it has "Explode")`,
      },
    ])
  })
})
