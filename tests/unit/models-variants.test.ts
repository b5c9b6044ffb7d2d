import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  inspectModel,
  MODEL_MAX_TEXTURE_PIXELS,
  ModelParamError,
  ModelRefused,
  optimizeModel,
  parseModelParams,
  TIER_BUDGETS,
  tierParams,
  type ModelSource,
  type ModelStats,
  type ModelVariants,
  type Tier,
} from '@services/content-api/models'
import { gltfJson } from '@services/content-api/models-check'
import { checkBytes, checkContents } from '@services/content-api/models/limits'
import { overHighBudget, reportModels } from '@services/content-api/models/report'
import { createModelVariants } from '@services/content-api/models/variants'
import { SUPPORTED_EXTENSIONS } from '@rules/model-formats'
import { modelCorpus, type CorpusModel } from '../fixtures/model-corpus'

// What a client gets for each tier: the variants of the model corpus (tests/fixtures/), the heavy
// scan among them, read back with `inspectModel` as the renderer's bench reads them. The heavy
// scan is transformed once per tier for the whole file.

const MB = 1024 * 1024
let corpus: CorpusModel[]
const heavy: Record<'low' | 'high', { glb: Uint8Array; stats: ModelStats }> = {} as never

beforeAll(async () => {
  corpus = await modelCorpus()
  const bytes = readFileSync(corpus.find((m) => m.name === 'heavy')!.file)
  for (const tier of ['low', 'high'] as const) {
    const started = performance.now()
    heavy[tier] = await optimizeModel(bytes, tierParams(tier))
    console.info(
      `heavy scan, ${tier} tier, in-process: ${Math.round(performance.now() - started)} ms, load ${os.loadavg()[0]!.toFixed(2)}`,
    )
  }
}, 120_000)

/** The extensions a GLB uses and requires, each one the renderer draws. */
function expectDrawable(glb: Uint8Array) {
  const json = gltfJson(glb) as { extensionsUsed?: string[]; extensionsRequired?: string[] }
  for (const name of json.extensionsUsed ?? []) expect(SUPPORTED_EXTENSIONS).toHaveProperty(name)
  expect(json.extensionsRequired ?? []).toContain('EXT_meshopt_compression')
}

describe('the heavy scan (1.04 M triangles, four 4096 px maps, ~34 MB)', () => {
  it('reaches a low-tier device as at most 4 MB, 250,000 triangles, 1024 px maps and 64 MB of texture memory', async () => {
    const stats = await inspectModel(heavy.low.glb)
    expect(stats.bytes).toBeLessThanOrEqual(4 * MB)
    expect(stats.triangles).toBeLessThanOrEqual(250_000)
    expect(stats.triangles).toBeGreaterThan(100_000)
    expect(stats.textures).toHaveLength(4)
    for (const t of stats.textures) expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(1024)
    expect(stats.gpuTextureBytes).toBeLessThanOrEqual(64 * MB)
    expectDrawable(heavy.low.glb)
  })

  it('reaches a high-tier device as at most 12 MB with 2048 px maps and its full geometry', async () => {
    const stats = await inspectModel(heavy.high.glb)
    expect(stats.bytes).toBeLessThanOrEqual(12 * MB)
    expect(stats.triangles).toBe(1_036_800)
    for (const t of stats.textures) expect(Math.max(t.width, t.height)).toBe(2048)
    expectDrawable(heavy.high.glb)
  })

  it('says what it costs as optimizeModel reports it', async () => {
    expect(await inspectModel(heavy.low.glb)).toEqual(heavy.low.stats)
  })
})

describe('every model of the corpus', () => {
  it('gets a low and a high variant that read, draw and keep their animation clips', async () => {
    for (const model of corpus.filter((m) => m.name !== 'heavy')) {
      const bytes = readFileSync(model.file)
      const source = await inspectModel(bytes)
      for (const tier of ['low', 'high'] as const) {
        const { glb } = await optimizeModel(bytes, tierParams(tier))
        const stats = await inspectModel(glb)
        expect(stats.triangles, `${model.name} ${tier}`).toBeGreaterThan(0)
        expect(stats.triangles).toBeLessThanOrEqual(source.triangles)
        expect(stats.animations, `${model.name} ${tier}`).toEqual(source.animations)
        expect(stats.textures).toHaveLength(source.textures.length)
        for (const t of stats.textures)
          expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(TIER_BUDGETS[tier].maxTexture)
        expectDrawable(glb)
      }
      if (model.animated) expect(source.animations.length).toBeGreaterThan(0)
    }
  }, 120_000)
})

describe('a model with material variants (KHR_materials_variants)', () => {
  type VariantsJson = {
    extensionsUsed?: string[]
    extensions?: { KHR_materials_variants?: { variants: { name: string }[] } }
    materials: { name?: string; pbrMetallicRoughness?: { baseColorTexture?: unknown } }[]
    meshes: {
      primitives: {
        material?: number
        extensions?: {
          KHR_materials_variants?: { mappings: { material: number; variants: number[] }[] }
        }
      }[]
    }[]
  }

  it('keeps every variant, its materials and its texture, in the low and the high tier', async () => {
    const bytes = readFileSync(corpus.find((m) => m.name === 'variants')!.file)
    for (const tier of ['low', 'high'] as const) {
      const { glb } = await optimizeModel(bytes, tierParams(tier))
      const json = gltfJson(glb) as VariantsJson
      expect(json.extensionsUsed, tier).toContain('KHR_materials_variants')
      expect(json.extensions?.KHR_materials_variants?.variants.map((v) => v.name)).toEqual([
        'Checker',
        'Ink',
        'Clay',
      ])
      for (const mesh of json.meshes)
        for (const prim of mesh.primitives) {
          const mappings = prim.extensions?.KHR_materials_variants?.mappings ?? []
          // Each variant maps to a material the file has: the ink one still textured.
          const byVariant = new Map(mappings.flatMap((m) => m.variants.map((v) => [v, m.material])))
          expect([...byVariant.keys()].sort(), tier).toEqual([0, 1, 2])
          for (const material of byVariant.values()) expect(json.materials[material]).toBeDefined()
          expect(
            json.materials[byVariant.get(1)!]!.pbrMetallicRoughness?.baseColorTexture,
          ).toBeDefined()
        }
      expectDrawable(glb)
    }
  }, 60_000)
})

describe("the variant for a phone's AR viewer (tier=ar)", () => {
  // What Scene Viewer reads for sure: glTF 2.0 with plain geometry and PNG or JPEG maps.
  const COMPRESSION = [
    'EXT_meshopt_compression',
    'KHR_draco_mesh_compression',
    'KHR_mesh_quantization',
    'EXT_texture_webp',
    'EXT_texture_avif',
  ]

  it('is plain glTF with PNG or JPEG maps up to 2048 px, keeping geometry, maps and clips, for every model of the corpus', async () => {
    for (const model of corpus.filter((m) => m.name !== 'heavy')) {
      const bytes = readFileSync(model.file)
      const source = await inspectModel(bytes)
      const { glb } = await optimizeModel(bytes, tierParams('ar'))
      const json = gltfJson(glb) as { extensionsUsed?: string[] }
      for (const name of COMPRESSION)
        expect(json.extensionsUsed ?? [], `${model.name}: ${name}`).not.toContain(name)
      const stats = await inspectModel(glb)
      expect(stats.triangles, model.name).toBe(source.triangles)
      expect(stats.animations, model.name).toEqual(source.animations)
      expect(stats.textures, model.name).toHaveLength(source.textures.length)
      for (const [i, t] of stats.textures.entries()) {
        // KTX2 maps stay KTX2 (nothing here decodes them); every other map is PNG or JPEG.
        if (source.textures[i]!.mimeType === 'image/ktx2') expect(t.mimeType).toBe('image/ktx2')
        else expect(t.mimeType, `${model.name} map ${i}`).toMatch(/^image\/(png|jpeg)$/)
        expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(2048)
      }
      expect(stats.bytes, model.name).toBeLessThanOrEqual(TIER_BUDGETS.ar.maxBytes)
    }
  }, 120_000)

  it('brings the heavy scan within 250,000 triangles, 2048 px maps and 15 MB', async () => {
    const bytes = readFileSync(corpus.find((m) => m.name === 'heavy')!.file)
    const stats = await inspectModel((await optimizeModel(bytes, tierParams('ar'))).glb)
    expect(stats.triangles).toBeLessThanOrEqual(250_000)
    expect(stats.triangles).toBeGreaterThan(100_000)
    for (const t of stats.textures) {
      expect(t.mimeType).toMatch(/^image\/(png|jpeg)$/)
      expect(Math.max(t.width, t.height)).toBe(2048)
    }
    expect(stats.bytes).toBeLessThanOrEqual(15 * MB)
  }, 120_000)

  it('is served even when the upload is smaller, since the upload may be compressed', async () => {
    const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
    const { variants, done } = service()
    try {
      const response = await ask(variants, 'ar', { id: 'vessel', bytes: async () => original })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('model/gltf-binary')
      const glb = await bodyOf(response)
      const json = gltfJson(glb) as { extensionsUsed?: string[] }
      for (const name of COMPRESSION) expect(json.extensionsUsed ?? []).not.toContain(name)
      expect((await inspectModel(glb)).triangles).toBe((await inspectModel(original)).triangles)
    } finally {
      done()
    }
  }, 60_000)
})

describe('parameters', () => {
  it('reads tier and the expert ceilings, normalized', () => {
    expect(parseModelParams(new URLSearchParams(''))).toBeNull()
    expect(parseModelParams(new URLSearchParams('v=abc'))).toBeNull()
    expect(parseModelParams(new URLSearchParams('tier=low'))).toEqual(tierParams('low'))
    expect(parseModelParams(new URLSearchParams('tier=high&maxtex=512&maxtris=100000'))).toEqual({
      tier: 'high',
      maxTexture: 512,
      maxTriangles: 100_000,
    })
    // A ceiling above the tier's does not raise it.
    expect(parseModelParams(new URLSearchParams('tier=low&maxtex=4096'))?.maxTexture).toBe(1024)
  })

  it('refuses an unknown tier, a malformed ceiling, and a ceiling without a tier, naming each', () => {
    const error = (query: string) => {
      try {
        parseModelParams(new URLSearchParams(query))
      } catch (e) {
        expect(e).toBeInstanceOf(ModelParamError)
        return (e as Error).message
      }
      throw new Error(`accepted ${query}`)
    }
    expect(error('tier=medium')).toMatch(/tier "medium".*low, high, ar/)
    expect(error('tier=low&maxtex=big')).toMatch(/maxtex/)
    expect(error('tier=low&maxtris=10')).toMatch(/maxtris/)
    expect(error('maxtex=512')).toMatch(/tier/)
  })
})

describe('limits', () => {
  it('refuses a model over a limit with a message that names the limit', () => {
    const refused = (run: () => void) => {
      try {
        run()
      } catch (e) {
        expect(e).toBeInstanceOf(ModelRefused)
        return e as ModelRefused
      }
      throw new Error('accepted')
    }
    const bytes = refused(() => checkBytes(161 * MB))
    expect(bytes.status).toBe(413)
    expect(bytes.message).toBe('model too large: 161 MB over the 100 MB limit (MODEL_MAX_BYTES)')
    const triangles = refused(() => checkContents({ triangles: 6_000_000, textures: [] }))
    expect(triangles.status).toBe(422)
    expect(triangles.message).toMatch(/6,000,000 over the 5,000,000 limit \(MODEL_MAX_TRIANGLES\)/)
    const side = Math.sqrt(MODEL_MAX_TEXTURE_PIXELS) * 2
    const pixels = refused(() =>
      checkContents({ triangles: 1, textures: [{ width: side, height: side }] }),
    )
    expect(pixels.status).toBe(422)
    expect(pixels.message).toMatch(
      /16384 × 16384 px over the 8192 × 8192 limit \(MODEL_MAX_TEXTURE_PIXELS\)/,
    )
  })
})

describe("the editors' report (content:check, prismic:push)", () => {
  it('gives bytes, triangles and texture sizes as uploaded and per tier', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-report-'))
    try {
      const model = corpus.find((m) => m.name === 'textured-jpeg')!
      const [report] = await reportModels(
        [{ file: model.file, name: 'models/textured.glb' }],
        createModelVariants({ cache: { dir, maxBytes: 2 ** 30 } }),
      )
      expect(report!.line).toMatch(
        /^models\/textured\.glb \([\d.]+ m × [\d.]+ m × [\d.]+ m\): \d+ KB, 11,728 triangles, textures 1024×1024 jpeg; low tier .*webp; high tier /,
      )
      expect(report!.warning).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('warns when even the high tier is over its budget, naming what is over', () => {
    const stats = { ...heavy.high.stats, bytes: 13 * MB }
    expect(overHighBudget(stats)).toMatch(/13\.0 MB over 12\.0 MB/)
    expect(overHighBudget(heavy.high.stats)).toBeNull()
  })
})

/** A fresh variants service over a cache folder of its own; `done` removes the folder. */
function service(options: Parameters<typeof createModelVariants>[0] = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-variants-'))
  const variants = createModelVariants({ cache: { dir, maxBytes: 2 ** 30 }, ...options })
  return { variants, done: () => rmSync(dir, { recursive: true, force: true }) }
}

const ask = (variants: ModelVariants, tier: Tier, source: ModelSource) =>
  variants.serve(
    new Request(`http://media.test/model.glb?tier=${tier}`),
    tierParams(tier),
    source,
    { 'Cache-Control': 'public, no-cache' },
  )

const bodyOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())

describe('a variant is never bigger than an upload that already fits the tier', () => {
  it("answers the small vessel's own bytes for tier=low and tier=high, cached with their ETag", async () => {
    const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
    const stats = await inspectModel(original)
    const { variants, done } = service()
    try {
      for (const tier of ['low', 'high'] as const) {
        // The premise: this upload fits the tier, and the pipeline's GLB of it is no smaller.
        expect(stats.triangles).toBeLessThanOrEqual(TIER_BUDGETS[tier].maxTriangles)
        const made = await optimizeModel(original, tierParams(tier))
        expect(made.glb.byteLength, tier).toBeGreaterThanOrEqual(original.byteLength)

        const source = { id: 'vessel', bytes: async () => original }
        const first = await ask(variants, tier, source)
        expect(first.status).toBe(200)
        expect(first.headers.get('content-type')).toBe('model/gltf-binary')
        expect(first.headers.get('content-length')).toBe(String(original.byteLength))
        expect(await bodyOf(first), tier).toEqual(original)
        const etag = first.headers.get('etag')!
        expect(etag).toMatch(new RegExp(`^"${tier}-`))

        // Kept as the variant: the next request is answered from the cache, then with a 304.
        const count = variants.stats().made
        const second = await ask(variants, tier, source)
        expect(await bodyOf(second)).toEqual(original)
        expect(second.headers.get('etag')).toBe(etag)
        expect(variants.stats().made).toBe(count)
        const revalidated = await variants.serve(
          new Request('http://media.test/model.glb', { headers: { 'If-None-Match': etag } }),
          tierParams(tier),
          source,
          {},
        )
        expect(revalidated.status).toBe(304)
      }
    } finally {
      done()
    }
  }, 60_000)

  it('still answers a smaller variant, with WebP textures, of a textured model', async () => {
    const model = corpus.find((m) => m.name === 'textured-jpeg')!
    const original = new Uint8Array(readFileSync(model.file))
    const { variants, done } = service()
    try {
      for (const tier of ['low', 'high'] as const) {
        const response = await ask(variants, tier, { id: 'textured', bytes: async () => original })
        expect(response.status).toBe(200)
        const body = await bodyOf(response)
        expect(body.byteLength, tier).toBeLessThan(original.byteLength)
        const stats = await inspectModel(body)
        expect(stats.textures.map((t) => t.mimeType)).toEqual(['image/webp'])
      }
    } finally {
      done()
    }
  }, 60_000)

  it('keeps a variant that is no smaller when the upload is over the tier (a 2048 px map at low)', async () => {
    const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
    const stats = await inspectModel(original)
    const variant = new Uint8Array(original.byteLength + 100)
    variant.set(original)
    const over: ModelStats = {
      ...stats,
      textures: [{ width: 2048, height: 2048, mimeType: 'image/jpeg' }],
    }
    const { variants, done } = service({
      render: async () => ({ glb: variant, stats, source: over }),
    })
    try {
      const response = await ask(variants, 'low', { id: 'over', bytes: async () => original })
      expect(await bodyOf(response)).toEqual(variant)
      // The same upload within the high tier's 2048 px gets its own bytes.
      const high = await ask(variants, 'high', { id: 'over', bytes: async () => original })
      expect(await bodyOf(high)).toEqual(original)
    } finally {
      done()
    }
  })
})

describe('a render that crashes', () => {
  it('answers the original bytes, uncached, and the next request renders again', async () => {
    const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
    let renders = 0
    const { variants, done } = service({
      render: async () => {
        renders += 1
        throw new Error('the model render ended without an answer (SIGKILL)')
      },
    })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const source = {
        id: 'sha-of-vessel',
        name: 'media/models/vessel.glb',
        bytes: async () => original,
      }
      for (const tier of ['low', 'high'] as const) {
        const response = await ask(variants, tier, source)
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('model/gltf-binary')
        expect(response.headers.get('cache-control')).toBe('no-store')
        expect(response.headers.get('x-model-variant')).toBe(
          'original (the variant could not be made)',
        )
        expect(response.headers.get('x-file-size')).toBe(String(original.byteLength))
        expect(response.headers.get('etag')).toBeNull()
        expect(await bodyOf(response)).toEqual(original)
      }
      expect(renders).toBe(2)
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(/media\/models\/vessel\.glb \(low-1024-250000\).*SIGKILL/),
      )
      // Nothing was kept: the same request renders again.
      const again = await ask(variants, 'low', source)
      expect(again.status).toBe(200)
      expect(renders).toBe(3)
      expect(variants.stats().entries).toBe(0)
    } finally {
      errors.mockRestore()
      done()
    }
  })

  it('leaves the refusals as they are: a limit is still 422 and a failed make still rejects', async () => {
    const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
    const { variants, done } = service({
      render: async () => {
        throw new ModelRefused(422, 'model has too many triangles: (MODEL_MAX_TRIANGLES)')
      },
    })
    try {
      const response = await ask(variants, 'low', { id: 'refused', bytes: async () => original })
      expect(response.status).toBe(422)
      expect(await response.text()).toMatch(/MODEL_MAX_TRIANGLES/)
    } finally {
      done()
    }
    const crashing = service({
      render: () => Promise.reject(new Error('out of memory')),
    })
    try {
      // Warming (make) reports the failure rather than caching a stand-in.
      await expect(
        crashing.variants.make(tierParams('low'), { id: 'x', bytes: async () => original }),
      ).rejects.toThrow('out of memory')
    } finally {
      crashing.done()
    }
  })
})
