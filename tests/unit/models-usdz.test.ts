import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  inspectModel,
  ModelParamError,
  ModelRefused,
  optimizeModel,
  parseModelParams,
  usdzParams,
} from '@services/content-api/models'
import { gltfJson } from '@services/content-api/models-check'
import { modelIO } from '@services/content-api/models/io'
import { createModelVariants } from '@services/content-api/models/variants'
import { modelCorpus, type CorpusModel } from '../fixtures/model-corpus'
import { readUsd, type UsdScene } from '../support/tinyusdz'
import { localFiles } from '../support/zip'

// The USDZ that AR Quick Look opens on iPhone and iPad (issue 42), made on the server from each
// model of the corpus: a valid package (stored zip, 64-byte aligned, the root layer first), read
// back by TinyUSDZ (a USD reader we did not write) with the model's triangles at their true size,
// its materials and textures, and its animation.

let corpus: CorpusModel[]
beforeAll(async () => {
  corpus = await modelCorpus()
}, 120_000)

/** Triangles over every mesh, and the bounds of every point, in the USD's units (metres). */
function usdGeometry(usd: UsdScene) {
  let triangles = 0
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < usd.numMeshes(); i++) {
    const mesh = usd.getMesh(i)
    for (const count of Array.from(mesh.faceVertexCounts)) triangles += count - 2
    const points = Array.from(mesh.points)
    for (let p = 0; p < points.length; p++) {
      min[p % 3] = Math.min(min[p % 3]!, points[p]!)
      max[p % 3] = Math.max(max[p % 3]!, points[p]!)
    }
  }
  return { triangles, min, max }
}

/**
 * The bounds of every position of a GLB's meshes (each mesh in its own space, as the USD's), and
 * how many materials its primitives wear.
 */
async function glbBounds(bytes: Uint8Array) {
  const doc = await (await modelIO()).readBinary(bytes)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  const materials = new Set<unknown>()
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMaterial()) materials.add(prim.getMaterial())
      const position = prim.getAttribute('POSITION')!
      const lo = position.getMin([]) as number[]
      const hi = position.getMax([]) as number[]
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, lo[k]!)
        max[k] = Math.max(max[k]!, hi[k]!)
      }
    }
  return { min, max, materials: materials.size }
}

/** The materials the USD's meshes are bound to. */
function usdMaterials(usd: UsdScene): number {
  const ids = new Set<number>()
  for (let i = 0; i < usd.numMeshes(); i++) {
    const id = usd.getMesh(i).materialId
    if (id >= 0) ids.add(id)
  }
  return ids.size
}

/** How many textures the materials of a GLB's meshes use (its own look, not its variants'). */
function ownLookTextures(glb: Uint8Array): number {
  type Info = { index: number } | undefined
  const json = gltfJson(glb) as {
    meshes?: { primitives: { material?: number }[] }[]
    materials?: {
      pbrMetallicRoughness?: { baseColorTexture?: Info; metallicRoughnessTexture?: Info }
      normalTexture?: Info
      occlusionTexture?: Info
      emissiveTexture?: Info
    }[]
  }
  const used = new Set<number>()
  for (const mesh of json.meshes ?? [])
    for (const prim of mesh.primitives) {
      const material = prim.material === undefined ? undefined : json.materials?.[prim.material]
      if (!material) continue
      for (const info of [
        material.pbrMetallicRoughness?.baseColorTexture,
        material.pbrMetallicRoughness?.metallicRoughnessTexture,
        material.normalTexture,
        material.occlusionTexture,
        material.emissiveTexture,
      ])
        if (info) used.add(info.index)
    }
  return used.size
}

describe('the USDZ of every model of the corpus', () => {
  it('is a stored zip, every file 64-byte aligned, the root layer first, that TinyUSDZ reads with the same triangles at the same size', async () => {
    for (const model of corpus.filter((m) => !['heavy', 'textured-ktx2'].includes(m.name))) {
      const bytes = readFileSync(model.file)
      const source = await inspectModel(bytes)
      const { glb: usdz } = await optimizeModel(bytes, usdzParams())
      const files = localFiles(usdz)
      expect(files[0]?.name, model.name).toBe('model.usda')
      for (const file of files) {
        expect(file.method, `${model.name} ${file.name}`).toBe(0)
        expect(file.dataOffset % 64, `${model.name} ${file.name}`).toBe(0)
      }
      const entries = unzipSync(usdz)
      expect(Object.keys(entries)).toEqual(files.map((f) => f.name))
      const layer = strFromU8(entries['model.usda']!)
      expect(layer, model.name).toMatch(
        /^#usda 1\.0\n\(\n[^)]*metersPerUnit = 1\n[^)]*upAxis = "Y"/,
      )
      expect(layer).toContain('token preliminary:planeAnchoring:alignment = "horizontal"')

      const usd = await readUsd(usdz, `${model.name}.usdz`)
      const geometry = usdGeometry(usd)
      expect(geometry.triangles, model.name).toBe(source.triangles)
      // The true size: the same extent, in metres, as the GLB's positions.
      const bounds = await glbBounds(
        (await optimizeModel(bytes, { ...usdzParams(), format: 'glb' })).glb,
      )
      for (let k = 0; k < 3; k++) {
        expect(geometry.min[k], `${model.name} min ${k}`).toBeCloseTo(bounds.min[k]!, 4)
        expect(geometry.max[k], `${model.name} max ${k}`).toBeCloseTo(bounds.max[k]!, 4)
      }
      // The materials of the GLB it was made from, each bound to its part.
      expect(usdMaterials(usd), model.name).toBe(bounds.materials)
      // Every texture of the model's own look is in the package, as PNG or JPEG, and bound to a
      // material. (A material variant's texture is not: AR Quick Look shows the model's own.)
      const textures = Object.keys(entries).filter((name) => name.startsWith('textures/'))
      expect(textures, model.name).toHaveLength(ownLookTextures(bytes))
      for (const name of textures) {
        expect(name).toMatch(/\.(png|jpg)$/)
        expect(layer).toContain(`asset inputs:file = @${name}@`)
      }
      if (model.textured) {
        const material = usd.getMaterial(usd.getMesh(0).materialId)
        expect(material.diffuseColorTextureId, model.name).toBeGreaterThanOrEqual(0)
        // TinyUSDZ found the map's file in the package and read its size.
        const texture = usd.getTexture(material.diffuseColorTextureId as number)
        const image = usd.getImage(texture.textureImageId as number)
        expect(image.width, model.name).toBe(source.textures[0]!.width)
      }
    }
  }, 180_000)

  it('makes the heavy scan’s from its ar tier: the triangles of the ar GLB, within the size cap', async () => {
    const heavy = corpus.find((m) => m.name === 'heavy')!
    const bytes = readFileSync(heavy.file)
    const ar = await optimizeModel(bytes, { ...usdzParams(), format: 'glb' })
    const { glb: usdz } = await optimizeModel(bytes, usdzParams())
    expect(usdz.byteLength).toBeLessThan(30 * 1024 * 1024)
    const files = localFiles(usdz)
    expect(files[0]?.name).toBe('model.usda')
    for (const file of files) expect(file.dataOffset % 64, file.name).toBe(0)
    const usd = await readUsd(usdz, 'heavy.usdz')
    expect(usdGeometry(usd).triangles).toBe(ar.stats.triangles)
    expect(usdMaterials(usd)).toBe((await glbBounds(ar.glb)).materials)
  }, 180_000)

  it("keeps the animated model's clip: its rotation's keys, over its 4 s", async () => {
    const animated = corpus.find((m) => m.animated)!
    const { glb: usdz } = await optimizeModel(readFileSync(animated.file), usdzParams())
    const layer = strFromU8(unzipSync(usdz)['model.usda']!)
    expect(layer).toMatch(/endTimeCode = 240\n/)
    expect(layer).toMatch(/timeCodesPerSecond = 60\n/)
    const samples = /quatf xformOp:orient\.timeSamples = \{ ([^}]*) \}/.exec(layer)
    expect(samples).not.toBeNull()
    expect(samples![1]!.split('), ').length).toBeGreaterThanOrEqual(5)
    await readUsd(usdz, 'animated.usdz')
  }, 60_000)

  it('is placed on a wall when asked', async () => {
    const model = corpus.find((m) => m.name === 'textured-png')!
    const { glb: usdz } = await optimizeModel(readFileSync(model.file), usdzParams('wall'))
    const layer = strFromU8(unzipSync(usdz)['model.usda']!)
    expect(layer).toContain('token preliminary:planeAnchoring:alignment = "vertical"')
  }, 60_000)

  it('is refused, naming the reason, for a model whose textures AR Quick Look cannot read (KTX2)', async () => {
    const model = corpus.find((m) => m.name === 'textured-ktx2')!
    const made = optimizeModel(readFileSync(model.file), usdzParams())
    await expect(made).rejects.toBeInstanceOf(ModelRefused)
    await expect(made).rejects.toThrow(/cannot be made into USDZ: a texture is image\/ktx2/)
  }, 60_000)
})

describe('a USDZ by URL', () => {
  it('reads format=usdz (from the ar tier) and its placement, and refuses what does not fit', () => {
    expect(parseModelParams(new URLSearchParams('format=usdz'))).toEqual(usdzParams('floor'))
    expect(parseModelParams(new URLSearchParams('tier=ar&format=usdz&placement=wall'))).toEqual(
      usdzParams('wall'),
    )
    for (const [query, message] of [
      ['format=usdz&tier=low', /made from tier=ar/],
      ['format=obj', /invalid format "obj"/],
      ['format=usdz&placement=ceiling', /invalid placement "ceiling"/],
      ['tier=ar&placement=wall', /add format=usdz/],
    ] as const)
      expect(() => parseModelParams(new URLSearchParams(query)), query).toThrow(
        expect.objectContaining({
          constructor: ModelParamError,
          message: expect.stringMatching(message),
        }),
      )
  })

  it('is served as model/vnd.usdz+zip with its own ETag, and a refusal is a 422 that names it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-usdz-'))
    try {
      const variants = createModelVariants({ cache: { dir, maxBytes: 2 ** 30 } })
      const vessel = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
      const response = await variants.serve(
        new Request('http://media.test/vessel.glb?format=usdz'),
        usdzParams(),
        { id: 'vessel', bytes: async () => vessel },
        { 'Cache-Control': 'public, no-cache' },
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('model/vnd.usdz+zip')
      expect(response.headers.get('etag')).toMatch(/^"ar-2048-250000-usdz-floor-/)
      const usdz = new Uint8Array(await response.arrayBuffer())
      expect(localFiles(usdz)[0]!.name).toBe('model.usda')

      const ktx2 = readFileSync(corpus.find((m) => m.name === 'textured-ktx2')!.file)
      const refused = await variants.serve(
        new Request('http://media.test/k.glb?format=usdz'),
        usdzParams(),
        { id: 'ktx2', bytes: async () => new Uint8Array(ktx2) },
        {},
      )
      expect(refused.status).toBe(422)
      expect(await refused.text()).toMatch(/USDZ.*ktx2/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
