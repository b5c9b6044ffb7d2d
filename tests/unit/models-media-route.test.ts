import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Document, NodeIO } from '@gltf-transform/core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMediaHandler } from '@services/content-api/images/media'
import { mediaHash } from '@services/content-api/images/version'
import { inspectModel, TIER_BUDGETS } from '@services/content-api/models'
import { createModelLane } from '@services/content-api/models/lane'
import { brokenModels, modelCorpus } from '../fixtures/model-corpus'
import { serveFetch } from './support/serve-fetch'

// The embedded media route answering Facet's model parameters, over a real socket: what a
// client sees (type, caching, errors), and that a cold render of the heavy scan, in its child
// process, leaves the server answering images within a second.

let dir: string
const media = () => path.join(dir, 'media')

/** A media handler over the fixture folder, on its own port, with caches of its own. */
async function served(options: Parameters<typeof createMediaHandler>[1] = {}) {
  const handler = createMediaHandler(
    { dir: mkdtempSync(path.join(dir, 'images-')), maxBytes: 64 * 2 ** 20 },
    {
      ...options,
      models: {
        cache: { dir: mkdtempSync(path.join(dir, 'models-')), maxBytes: 2 ** 30 },
        ...options.models,
      },
    },
  )
  const server = await serveFetch((request) =>
    handler.serve(request, path.join(media(), new URL(request.url).pathname)),
  )
  return { handler, ...server }
}

/** A GLB whose one texture says (in its PNG header) it is 16384 × 16384. */
async function hugeTextureGlb(): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
    .png()
    .toBuffer()
  // IHDR's width and height, at bytes 16 and 20.
  png.writeUInt32BE(16384, 16)
  png.writeUInt32BE(16384, 20)
  const doc = new Document()
  doc.createBuffer()
  const texture = doc.createTexture('huge').setImage(png).setMimeType('image/png')
  const material = doc.createMaterial('m').setBaseColorTexture(texture)
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setMaterial(material)
  doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)))
  return new NodeIO().writeBinary(doc)
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'facet-models-'))
  mkdirSync(media())
  for (const model of await modelCorpus())
    if (['textured-jpeg', 'animated', 'heavy'].includes(model.name))
      copyFileSync(model.file, path.join(media(), `${model.name}.glb`))
  const broken = (await brokenModels()).find((m) => m.name === 'not glTF')!
  writeFileSync(path.join(media(), 'not-gltf.glb'), broken.bytes)
  writeFileSync(path.join(media(), 'huge-texture.glb'), await hugeTextureGlb())
  await sharp({
    create: {
      width: 1600,
      height: 900,
      channels: 3,
      background: '#884422',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg()
    .toFile(path.join(media(), 'photo.jpg'))
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the media route with ?tier=', () => {
  let s: Awaited<ReturnType<typeof served>>
  beforeAll(async () => {
    s = await served()
  })
  afterAll(() => s.close())

  it('answers an optimized GLB, made once: the second request is served from the cache', async () => {
    const first = await fetch(`${s.origin}/textured-jpeg.glb?tier=low`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('model/gltf-binary')
    const body = new Uint8Array(await first.arrayBuffer())
    const stats = await inspectModel(body)
    expect(stats.textures[0]!.mimeType).toBe('image/webp')
    expect(stats.bytes).toBe(Number(first.headers.get('content-length')))
    const made = s.handler.models.stats().made
    const second = await fetch(`${s.origin}/textured-jpeg.glb?tier=low`)
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(body)
    expect(s.handler.models.stats().made).toBe(made)
    const etag = second.headers.get('etag')!
    const again = await fetch(`${s.origin}/textured-jpeg.glb?tier=low`, {
      headers: { 'If-None-Match': etag },
    })
    expect(again.status).toBe(304)
  }, 60_000)

  it('keeps the animation clips', async () => {
    const response = await fetch(`${s.origin}/animated.glb?tier=high`)
    expect(response.status).toBe(200)
    const stats = await inspectModel(new Uint8Array(await response.arrayBuffer()))
    expect(stats.animations.length).toBeGreaterThan(0)
  }, 60_000)

  it('serves the original bytes without tier, and immutable when the URL is versioned', async () => {
    const plain = await fetch(`${s.origin}/textured-jpeg.glb`)
    const original = (await modelCorpus()).find((m) => m.name === 'textured-jpeg')!
    expect((await plain.arrayBuffer()).byteLength).toBe(original.bytes)
    const v = mediaHash(path.join(media(), 'textured-jpeg.glb'))
    const versioned = await fetch(`${s.origin}/textured-jpeg.glb?v=${v}&tier=low`)
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const unversioned = await fetch(`${s.origin}/textured-jpeg.glb?tier=low`)
    expect(unversioned.headers.get('cache-control')).toBe('public, no-cache')
  }, 60_000)

  it('returns 400 naming the parameter for an unknown tier', async () => {
    const response = await fetch(`${s.origin}/textured-jpeg.glb?tier=medium`)
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/tier "medium"/)
  })

  it('returns 422 naming the limit for a texture over MODEL_MAX_TEXTURE_PIXELS', async () => {
    const response = await fetch(`${s.origin}/huge-texture.glb?tier=low`)
    expect(response.status).toBe(422)
    expect(await response.text()).toMatch(
      /16384 × 16384 px over the 8192 × 8192 limit \(MODEL_MAX_TEXTURE_PIXELS\)/,
    )
  }, 60_000)

  it('returns 422 with the reason for a file that is not a model', async () => {
    const response = await fetch(`${s.origin}/not-gltf.glb?tier=low`)
    expect(response.status).toBe(422)
    expect(await response.text()).toMatch(/model does not read/)
  }, 60_000)
})

describe('the model lane', () => {
  it('answers 503 with Retry-After at once when its renders are full, and serves images meanwhile', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const s = await served({
      models: {
        lane: createModelLane({ concurrency: 1, waiting: 0 }),
        render: async () => {
          await held
          throw new Error('released')
        },
      },
    })
    try {
      const first = fetch(`${s.origin}/textured-jpeg.glb?tier=low`)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const started = Date.now()
      const refused = await fetch(`${s.origin}/textured-jpeg.glb?tier=high`)
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(Date.now() - started).toBeLessThan(1000)
      expect((await fetch(`${s.origin}/photo.jpg?w=640`)).status).toBe(200)
      release()
      // That render failed: the original, not a 500 (tests/unit/models-variants.test.ts).
      const fallback = await first
      expect(fallback.status).toBe(200)
      expect(fallback.headers.get('x-model-variant')).toMatch(/^original/)
      expect(fallback.headers.get('cache-control')).toBe('no-store')
    } finally {
      release()
      await s.close()
    }
  }, 30_000)

  it('renders the heavy scan cold in a child process while the images keep answering within 1 s', async () => {
    const s = await served()
    try {
      const started = performance.now()
      const variant = fetch(`${s.origin}/heavy.glb?tier=low`).then(async (r) => ({
        status: r.status,
        body: new Uint8Array(await r.arrayBuffer()),
        ms: performance.now() - started,
      }))
      // Images of a project page, each a fresh render, while the variant renders.
      const slowest: number[] = []
      for (const width of [320, 480, 640, 828]) {
        await new Promise((resolve) => setTimeout(resolve, 400))
        const t = performance.now()
        const image = await fetch(`${s.origin}/photo.jpg?w=${width}`)
        expect(image.status).toBe(200)
        await image.arrayBuffer()
        slowest.push(performance.now() - t)
      }
      const { status, body, ms } = await variant
      expect(status).toBe(200)
      expect(Math.max(...slowest)).toBeLessThan(1000)
      const stats = await inspectModel(body)
      expect(stats.bytes).toBeLessThanOrEqual(TIER_BUDGETS.low.maxBytes)
      expect(stats.triangles).toBeLessThanOrEqual(TIER_BUDGETS.low.maxTriangles)
      console.info(
        `heavy scan, low tier, cold: ${Math.round(ms)} ms; images during it: ${slowest.map(Math.round).join(', ')} ms; load ${os.loadavg()[0]!.toFixed(2)}`,
      )
    } finally {
      await s.close()
    }
  }, 120_000)
})
