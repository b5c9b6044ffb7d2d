import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkModels, modelProblem } from '../../services/content-api/models-check'
import { SUPPORTED_EXTENSIONS } from '../../src/three/model-formats'
import { brokenModels, modelCorpus } from '../fixtures/model-corpus'

describe('content:check reads every model as the renderer would', () => {
  it('passes every model of the corpus (textures, Draco, meshopt, KTX2, animation…)', async () => {
    for (const model of await modelCorpus())
      expect(await modelProblem(readFileSync(model.file), model.file), model.name).toBeNull()
  }, 120_000)

  it('names the reason for each file that cannot be drawn', async () => {
    const reasons = new Map<string, string | null>()
    for (const broken of await brokenModels())
      reasons.set(broken.name, await modelProblem(broken.bytes, `${broken.name}.glb`))
    expect(reasons.get('unknown required extension')).toBe(
      'it requires "ACME_holographic_mesh", which the renderer does not support',
    )
    expect(reasons.get('truncated')).toMatch(
      /^it is cut short or padded: the GLB header says \d+ bytes, the file has \d+$/,
    )
    expect(reasons.get('not glTF')).toBe('it is not glTF (neither a GLB nor glTF JSON)')
    const gltf1 = new TextEncoder().encode(JSON.stringify({ asset: { version: '1.0' } }))
    expect(await modelProblem(gltf1, 'old.gltf')).toBe('it is glTF 1.0; only glTF 2.0 is drawn')
  })

  it('reports each such file of a content folder by its path', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-models-'))
    mkdirSync(path.join(dir, 'media', 'models', 'studio'), { recursive: true })
    const [good] = await modelCorpus()
    writeFileSync(path.join(dir, 'media', 'models', 'good.glb'), readFileSync(good!.file))
    writeFileSync(path.join(dir, 'media', 'models', 'studio', 'chair.glb'), 'Not Found')
    expect(await checkModels(dir)).toEqual({
      count: 2,
      problems: [
        {
          file: path.join('media', 'models', 'studio', 'chair.glb'),
          path: '(model)',
          message: 'this model cannot be drawn: it is not glTF (neither a GLB nor glTF JSON)',
        },
      ],
    })
  })

  it('lists only extensions three.js GLTFLoader draws', () => {
    const source = readFileSync('node_modules/three/examples/jsm/loaders/GLTFLoader.js', 'utf8')
    const block = source.slice(source.indexOf('const EXTENSIONS = {'))
    const loaderKnows = new Set(
      [...block.slice(0, block.indexOf('};')).matchAll(/'([A-Z]+_[A-Za-z_]+)'/g)].map((m) => m[1]),
    )
    for (const name of Object.keys(SUPPORTED_EXTENSIONS)) expect(loaderKnows, name).toContain(name)
  })
})
