import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_CAMERA,
  DEFAULT_LOOK,
  lookProblems,
  parseOrbitLimit,
  RANGES,
  resolveCamera,
  resolveLook,
  siteLook,
} from '../../rules/look'

// Art direction as content (#61): how a slice's fields, over the site's, become the look and the
// camera the renderer draws with; and what `content:check` refuses beyond the model's own bounds.

const asSite = (url: string) => `/local/prismic/media/${url.split('/').pop()}`
const media = (name: string) => ({ url: `https://cdn.example/${name}?v=1`, name })

describe('the look: the slice over the site over the defaults', () => {
  const site = siteLook(
    { environment: 'soft studio', exposure: 1.3, tone_mapping: 'ACES', shadow_intensity: 0.4 },
    asSite,
  )

  it("takes the settings' look over the defaults, field by field", () => {
    expect(site).toEqual({
      ...DEFAULT_LOOK,
      environment: { kind: 'preset', preset: 'soft-studio' },
      exposure: 1.3,
      toneMapping: 'aces',
      shadow: { intensity: 0.4, softness: DEFAULT_LOOK.shadow.softness },
    })
  })

  it("leaves the site's value where the slice's field is empty or says site default", () => {
    expect(
      resolveLook({ environment: 'site default', tone_mapping: 'site default' }, site, asSite),
    ).toEqual(site)
    expect(resolveLook({}, site, asSite)).toEqual(site)
  })

  it('takes an uploaded HDR or image over the preset, from the site’s origin', () => {
    expect(
      resolveLook({ environment: 'outdoor', environment_image: media('studio.hdr') }, site, asSite)
        .environment,
    ).toEqual({ kind: 'file', url: '/local/prismic/media/studio.hdr?v=1', hdr: true })
    expect(resolveLook({ environment_image: media('sky.avif') }, site, asSite).environment).toEqual(
      { kind: 'file', url: '/local/prismic/media/sky.avif?v=1', hdr: false },
    )
    // A file that is no environment (a model picked by mistake) leaves the preset.
    expect(
      resolveLook({ environment: 'outdoor', environment_image: media('lamp.glb') }, site, asSite)
        .environment,
    ).toEqual({ kind: 'preset', preset: 'outdoor' })
  })

  it('keeps a number within its range, as content:check asks it to be', () => {
    const look = resolveLook(
      { exposure: 99, shadow_intensity: -1, shadow_softness: 0.25, skybox: true },
      site,
      asSite,
    )
    expect(look).toMatchObject({
      exposure: 4,
      skybox: true,
      shadow: { intensity: 0, softness: 0.25 },
    })
  })
})

describe('the camera', () => {
  it('is framed automatically where the slice says nothing', () => {
    expect(resolveCamera({})).toEqual(DEFAULT_CAMERA)
  })

  it('reads the start, the target, the lens, the limits and auto-rotate as <model-viewer> writes them', () => {
    const camera = resolveCamera({
      camera_orbit: '-30deg 68deg 4m',
      camera_target: '0 1.2m 0',
      field_of_view: 30,
      min_camera_orbit: 'auto 20deg 1.5m',
      max_camera_orbit: '60deg 100deg auto',
      min_field_of_view: 18,
      rotation_speed: 20,
      auto_rotate_delay: 2000,
    })
    const deg = Math.PI / 180
    expect(camera).toEqual({
      orbit: {
        azimuth: expect.closeTo(-30 * deg, 9),
        polar: expect.closeTo(68 * deg, 9),
        distance: 4,
      },
      target: [0, 1.2, 0],
      fov: 30,
      fovRange: [18, 30],
      limits: {
        azimuth: [-Infinity, expect.closeTo(60 * deg, 9)],
        polar: [expect.closeTo(20 * deg, 9), expect.closeTo(100 * deg, 9)],
        distance: [1.5, null],
      },
      rotationSpeed: expect.closeTo(20 * deg, 9),
      rotateDelayMs: 2000,
    })
  })

  it('leaves out what does not parse (content:check names it), and keeps the lens within its range', () => {
    const camera = resolveCamera({
      camera_orbit: 'sideways',
      field_of_view: 200,
      max_field_of_view: 40,
    })
    expect(camera.orbit).toBeNull()
    expect(camera.fov).toBe(40)
  })
})

describe('an orbit limit, as <model-viewer> writes it', () => {
  it('takes a value or auto for each part, and Infinity for the azimuth', () => {
    expect(parseOrbitLimit('auto auto auto')).toEqual({
      ok: true,
      value: { azimuth: null, polar: null, distance: null },
    })
    expect(parseOrbitLimit('-Infinity 0.5rad 2m')).toEqual({
      ok: true,
      value: { azimuth: -Infinity, polar: 0.5, distance: 2 },
    })
  })

  it('says what is wrong in an editor’s words', () => {
    expect(parseOrbitLimit('left 20deg')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/"left" is not an angle/),
    })
    expect(parseOrbitLimit('auto 200deg')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/between 0deg/),
    })
    expect(parseOrbitLimit('auto auto -2m')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a distance/),
    })
  })
})

describe("what content:check refuses of a look, beyond the model's bounds", () => {
  it('names each field that does not parse, and a minimum over its maximum', () => {
    expect(
      lookProblems({
        camera_orbit: '30deg',
        camera_target: '0 1',
        min_camera_orbit: 'auto 90deg',
        max_camera_orbit: 'auto 30deg',
        min_field_of_view: 50,
        max_field_of_view: 20,
        environment_image: media('chair.glb'),
      }).map((problem) => problem.field),
    ).toEqual([
      'environment_image',
      'camera_orbit',
      'camera_target',
      'min_camera_orbit',
      'min_field_of_view',
    ])
    expect(
      lookProblems({ camera_orbit: '30deg 75deg', environment_image: media('a.hdr') }),
    ).toEqual([])
  })

  it("has each number's range in the models, where Slice Machine and the API's check read it", () => {
    type Field = { type: string; config: { min?: number; max?: number } }
    const fields: Record<string, Field> = {}
    const models = ['src/slices/ModelViewer/model.json', 'src/slices/Hero/model.json'].flatMap(
      (file) =>
        (
          JSON.parse(readFileSync(file, 'utf8')).variations as { primary: Record<string, Field> }[]
        ).map((variation) => variation.primary),
    )
    const settings = JSON.parse(readFileSync('customtypes/settings/index.json', 'utf8')).json[
      '3D look'
    ] as Record<string, Field>
    for (const primary of [...models, settings])
      for (const [name, field] of Object.entries(primary))
        if (name in RANGES) fields[`${name}:${Object.keys(fields).length}`] = field
    expect(Object.keys(fields).length).toBeGreaterThanOrEqual(Object.keys(RANGES).length)
    for (const [key, field] of Object.entries(fields)) {
      const range = RANGES[key.split(':')[0] as keyof typeof RANGES]
      expect([field.type, field.config.min, field.config.max], key).toEqual([
        'Number',
        range.min,
        range.max,
      ])
    }
  })
})
