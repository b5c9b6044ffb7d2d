import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { Document, NodeIO } from '@gltf-transform/core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

// Warming, as the site runs it: the publish webhook (/api/revalidate) in local mode, and the
// build's last step (scripts/models/warm.ts), each over a content folder of one document that
// links to one model, with a model cache of its own (MODEL_CACHE_DIR).

// The webhook purges Next's data cache, which needs Next's request context; the purge itself is
// Next's to test.
vi.mock('next/cache', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/cache')>()),
  revalidateTag: vi.fn(),
}))

const run = promisify(execFile)
let dir: string

/** A small GLB made here: a lathe of a few hundred triangles, untextured. */
async function smallGlb(): Promise<Uint8Array> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const [rings, segments] = [8, 16]
  const position: number[] = []
  for (let r = 0; r <= rings; r++)
    for (let s = 0; s <= segments; s++) {
      const a = (s / segments) * Math.PI * 2
      const radius = 0.4 + 0.3 * Math.sin((r / rings) * Math.PI)
      position.push(Math.cos(a) * radius, r / rings, Math.sin(a) * radius)
    }
  const indices: number[] = []
  for (let r = 0; r < rings; r++)
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s
      const b = a + segments + 1
      indices.push(a, b, a + 1, b, b + 1, a + 1)
    }
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(new Float32Array(position)).setBuffer(buffer),
    )
    .setIndices(
      doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer),
    )
    .setMaterial(doc.createMaterial('clay').setBaseColorFactor([0.8, 0.5, 0.3, 1]))
  doc.createScene().addChild(doc.createNode('piece').setMesh(doc.createMesh().addPrimitive(prim)))
  return new NodeIO().writeBinary(doc)
}

/**
 * A content folder: one page whose ModelViewer slice links to `media/models/piece.glb` and offers
 * it in AR, on a wall.
 */
async function contentFolder(root: string): Promise<string> {
  const content = path.join(root, 'content')
  mkdirSync(path.join(content, 'media', 'models'), { recursive: true })
  mkdirSync(path.join(content, 'documents', 'page', 'piece'), { recursive: true })
  writeFileSync(
    path.join(content, 'repository.json'),
    JSON.stringify({
      name: 'facet-warm-test',
      languages: [{ id: 'en-us', name: 'English - United States', master: true }],
    }),
  )
  writeFileSync(path.join(content, 'media', 'models', 'piece.glb'), await smallGlb())
  const slice = {
    id: 'model_viewer$piece',
    slice_type: 'model_viewer',
    slice_label: null,
    variation: 'default',
    version: 'initial',
    primary: {
      heading: 'Turn the piece',
      model: { link_type: 'Media', media: 'models/piece.glb' },
      description: 'A small clay piece.',
      ar: true,
      ar_label: 'View in your room',
      ar_placement: 'wall',
    },
    items: [],
  }
  writeFileSync(
    path.join(content, 'documents', 'page', 'piece', 'en-us.json'),
    JSON.stringify({
      uid: 'piece',
      tags: [],
      first_publication_date: '2026-11-20T09:00:00+0000',
      last_publication_date: '2026-11-20T09:00:00+0000',
      data: { title: 'Piece', slices: [slice] },
    }),
  )
  return content
}

/** The variants in a model cache folder, by tier. */
const cached = (cacheDir: string) => {
  const files = readdirSync(cacheDir)
  return {
    low: files.filter((f) => /^low-.*\.glb$/.test(f)),
    high: files.filter((f) => /^high-.*\.glb$/.test(f)),
    ar: files.filter((f) => /^ar-.*\.glb$/.test(f)),
    usdz: files.filter((f) => /^ar-.*-usdz-(floor|wall)-.*\.usdz$/.test(f)),
    wall: files.filter((f) => /^ar-.*-usdz-wall-.*\.usdz$/.test(f)),
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'facet-warm-'))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the publish webhook', () => {
  const saved = { ...process.env }
  afterAll(() => {
    process.env = saved
  })

  it("makes both tiers' variants of the model the published document links to, and as its viewer offers AR on a wall, the ar tier's GLB and a USDZ placed on a wall", async () => {
    const root = mkdtempSync(path.join(dir, 'webhook-'))
    const cacheDir = path.join(root, 'model-cache')
    // Read when the modules load: local mode over the folder, the cache in the folder's place.
    delete process.env.PRISMIC_REPOSITORY
    process.env.CONTENT_DIR = await contentFolder(root)
    process.env.MODEL_CACHE_DIR = cacheDir
    process.env.PRISMIC_WEBHOOK_SECRET = 'publish-secret'
    const { POST } = await import('@/app/api/revalidate/route')
    const { getEmbeddedContentApi } = await import('@/lib/content/embedded')
    const { revalidateTag } = await import('next/cache')

    const response = await POST(
      new Request('http://site.test/api/revalidate', {
        method: 'POST',
        body: JSON.stringify({ type: 'api-update', secret: 'publish-secret' }),
      }),
    )
    expect(response.status).toBe(200)
    expect(revalidateTag).toHaveBeenCalled()

    // The answer does not wait for the variants: they appear in the cache in the background.
    const deadline = Date.now() + 90_000
    while (cached(cacheDir).usdz.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250))
    expect(cached(cacheDir).low).toHaveLength(1)
    expect(cached(cacheDir).high).toHaveLength(1)
    expect(cached(cacheDir).ar).toHaveLength(1)
    expect(cached(cacheDir).usdz).toEqual(cached(cacheDir).wall)
    expect(cached(cacheDir).wall).toHaveLength(1)

    // A visitor's request for either tier is then answered from the cache, with no render.
    const api = getEmbeddedContentApi()
    const made = api.modelVariants.stats().made
    expect(made).toBe(4)
    for (const tier of ['low', 'high', 'ar'] as const) {
      const variant = await api.fetch(
        new Request(`http://site.test/local/prismic/media/models/piece.glb?tier=${tier}`),
      )
      expect(variant.status).toBe(200)
      expect(variant.headers.get('content-type')).toBe('model/gltf-binary')
      expect(variant.headers.get('etag')).toBe(
        `"${cached(cacheDir)[tier][0]!.replace(/\.glb$/, '')}"`,
      )
    }
    expect(api.modelVariants.stats().made).toBe(made)
  }, 120_000)
})

describe('the build step (scripts/models/warm.ts)', () => {
  it('reports 1 model and 4 variants made (low, high, ar, USDZ on a wall), then 0 made when run again over the same cache', async () => {
    const root = mkdtempSync(path.join(dir, 'build-'))
    const cacheDir = path.join(root, 'model-cache')
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CONTENT_DIR: await contentFolder(root),
      MODEL_CACHE_DIR: cacheDir,
    }
    delete env.PRISMIC_REPOSITORY
    // As scripts/build-if-needed.mjs runs it: node with tsx, from the repository's root.
    const warm = async () =>
      (
        await run(process.execPath, ['--import', 'tsx', 'scripts/models/warm.ts'], {
          env,
          timeout: 120_000,
        })
      ).stdout

    expect(await warm()).toMatch(
      /^Model variants: 1 model, 4 variants made, 0 failed \(\d+\.\d s\)\.$/m,
    )
    expect(cached(cacheDir).low).toHaveLength(1)
    expect(cached(cacheDir).high).toHaveLength(1)
    expect(cached(cacheDir).ar).toHaveLength(1)
    expect(cached(cacheDir).usdz).toEqual(cached(cacheDir).wall)
    expect(cached(cacheDir).wall).toHaveLength(1)
    expect(await warm()).toMatch(
      /^Model variants: 1 model, 0 variants made, 0 failed \(\d+\.\d s\)\.$/m,
    )
  }, 240_000)
})

describe('which models get AR files warmed (arModelLinks)', () => {
  it('names each model a viewer offers in AR, with each placement, and none that a viewer does not', async () => {
    const { arModelLinks } = await import('@services/content-api/models/warm')
    const viewer = (url: string, primary: Record<string, unknown>) => ({
      slice_type: 'model_viewer',
      primary: { model: { link_type: 'Media', url }, ...primary },
    })
    const documents = [
      { data: { slices: [viewer('https://m/a.glb', { ar: true, ar_placement: 'wall' })] } },
      {
        data: {
          slices: [
            viewer('https://m/a.glb', { ar: true, ar_placement: null }),
            viewer('https://m/b.glb', { ar: false, ar_placement: 'wall' }),
            viewer('https://m/c.glb', {}),
            { slice_type: 'hero', primary: { ar: true, model: { url: 'https://m/d.glb' } } },
          ],
        },
      },
    ]
    expect(arModelLinks(documents)).toEqual(new Map([['https://m/a.glb', ['floor', 'wall']]]))
  })
})
