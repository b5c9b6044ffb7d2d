import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Document, NodeIO } from '@gltf-transform/core'
import {
  checkModels,
  modelProblem,
  modelSize,
  sizeProblem,
} from '../../services/content-api/models-check'
import { PLUGIN_EXTENSIONS, SUPPORTED_EXTENSIONS } from '../../rules/model-formats'
import { modelIO } from '../../services/content-api/models/io'
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
    const { bounds, variants, clips, ...found } = await checkModels(dir)
    // The model that reads has its bounds, its finishes and its clips kept, for its hotspots, the
    // labels of its finishes (hotspots-check.ts) and a story's steps (story-check.ts).
    expect([...bounds.keys()]).toEqual([path.join('models', 'good.glb')])
    expect([...variants.keys()]).toEqual([path.join('models', 'good.glb')])
    expect([...clips.keys()]).toEqual([path.join('models', 'good.glb')])
    expect(found).toEqual({
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

  it('lists only extensions three.js GLTFLoader draws, itself or through a plugin the renderer registers', () => {
    const source = readFileSync('node_modules/three/examples/jsm/loaders/GLTFLoader.js', 'utf8')
    const block = source.slice(source.indexOf('const EXTENSIONS = {'))
    const loaderKnows = new Set(
      [...block.slice(0, block.indexOf('};')).matchAll(/'([A-Z]+_[A-Za-z_]+)'/g)].map((m) => m[1]),
    )
    for (const name of Object.keys(SUPPORTED_EXTENSIONS)) {
      // Or a plugin the renderer registers reads it: the plugin's own source names it.
      const plugin = PLUGIN_EXTENSIONS[name]
      if (plugin)
        expect(readFileSync(`node_modules/${plugin}`, 'utf8'), name).toContain(
          `this.name = '${name}'`,
        )
      else expect(loaderKnows, name).toContain(name)
    }
  })
})

/** A GLB of one box `size` metres across (x, y, z), as an exporter writes one. */
async function boxModel(size: [number, number, number]): Promise<Uint8Array> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const [x, y, z] = size
  const corners = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [
    i & 1 ? x : 0,
    i & 2 ? y : 0,
    i & 4 ? z : 0,
  ])
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array(corners))
    .setBuffer(buffer)
  const indices = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Uint16Array([0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7]))
    .setBuffer(buffer)
  const mesh = doc
    .createMesh()
    .addPrimitive(doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices))
  doc.createScene().addChild(doc.createNode().setMesh(mesh))
  return new NodeIO().writeBinary(doc)
}

describe('content:check reports a model whose size is not a real object’s (glTF is in metres)', () => {
  it('passes every model of the corpus and the sample content, which are in metres', async () => {
    const io = await modelIO()
    const files = [
      ...(await modelCorpus()).map((model) => model.file),
      'content/media/models/lamp.glb',
      'content/media/models/vessel.glb',
    ]
    for (const file of files) {
      const size = modelSize(await io.read(file))
      expect(size, file).not.toBeNull()
      expect(sizeProblem(size), file).toBeNull()
    }
    const sample = await checkModels('content')
    expect(sample.problems).toEqual([])
    // The lamp's shade in three lacquers (npm run models); the speaker's wool in three; the
    // vessel in its one finish. The speaker comes apart in its one clip (the story scrubs it).
    expect(Object.fromEntries(sample.variants)).toEqual({
      [path.join('models', 'lamp.glb')]: ['Blue', 'Red', 'White'],
      [path.join('models', 'speaker.glb')]: ['Sand', 'Graphite', 'Moss'],
      [path.join('models', 'vessel.glb')]: [],
    })
    expect(Object.fromEntries(sample.clips)).toEqual({
      [path.join('models', 'lamp.glb')]: [],
      [path.join('models', 'speaker.glb')]: ['Explode'],
      [path.join('models', 'vessel.glb')]: [],
    })
  })

  it('names the file and its size when it is under 1 cm or over 50 m across', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-sizes-'))
    mkdirSync(path.join(dir, 'media', 'models'), { recursive: true })
    const write = async (name: string, size: [number, number, number]) =>
      writeFileSync(path.join(dir, 'media', 'models', name), await boxModel(size))
    // A 1.4 m chair exported in centimetres; a ring exported in metres from millimetres; a chair
    // and a house as they should be.
    await write('chair-cm.glb', [60, 140, 55])
    await write('ring.glb', [0.002, 0.002, 0.0005])
    await write('chair.glb', [0.6, 1.4, 0.55])
    await write('house.glb', [12, 9, 10])
    const { problems, count } = await checkModels(dir)
    expect(count).toBe(4)
    expect(problems).toEqual([
      {
        file: path.join('media', 'models', 'chair-cm.glb'),
        path: '(model)',
        message: expect.stringMatching(
          /^this model's size is not a real object's: it is 140 m across \(60 m × 140 m × 55 m\); glTF is in metres .* between 10 mm and 50 m/,
        ),
      },
      {
        file: path.join('media', 'models', 'ring.glb'),
        path: '(model)',
        message: expect.stringMatching(
          /^this model's size is not a real object's: it is 2 mm across/,
        ),
      },
    ])
  })
})
