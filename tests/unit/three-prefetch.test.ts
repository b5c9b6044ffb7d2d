// @vitest-environment happy-dom
import { Document, NodeIO } from '@gltf-transform/core'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js'
import {
  DECODER_PREFETCH_MAX,
  DECODER_WIRE_BYTES,
  glbExtensionsUsed,
  prefetchDecoders,
} from '../../src/three/render/decoder-prefetch'
import { DECODERS_PATH } from '../../src/three/render/decoders'
import { MeasuredGLTFLoader } from '../../src/three/render/model-info'
import { PREFETCH_MAX_BYTES, prefetchModel, takePrefetched } from '../../src/three/render/prefetch'

// A model fetched while the worker waits for its canvas (a `warm` message) is what the model's
// loader then parses: not fetched twice, and a failed prefetch leaves the loader to fetch (and
// report) it itself.

/** A one-triangle GLB, made here as any exporter would write it. */
async function triangle(): Promise<Uint8Array> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer)
  const mesh = doc
    .createMesh()
    .addPrimitive(doc.createPrimitive().setAttribute('POSITION', position))
  doc.createScene().addChild(doc.createNode().setMesh(mesh))
  return new NodeIO().writeBinary(doc)
}

let glb: Uint8Array
beforeAll(async () => {
  glb = await triangle()
})
afterEach(() => vi.unstubAllGlobals())

/** `fetch` answering `status` with the triangle, counting the URLs asked for. */
function stubFetch(status = 200): string[] {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    asked.push(typeof input === 'string' ? input : 'url' in input ? input.url : input.href)
    return new Response(status === 200 ? glb.slice() : 'missing', { status })
  })
  return asked
}

const load = (loader: MeasuredGLTFLoader, url: string) =>
  new Promise<GLTF>((resolve, reject) => loader.load(url, resolve, undefined, reject))

describe('models prefetched before the canvas', () => {
  it('the loader parses the prefetched bytes, fetching nothing more, and gives them out once', async () => {
    const asked = stubFetch()
    const url = 'http://site.test/media/a.glb?tier=low'
    prefetchModel(url)
    prefetchModel(url) // a second warm message naming it again fetches nothing
    expect(asked).toEqual([url])
    const progress: number[] = []
    const gltf = await new Promise<GLTF>((resolve, reject) =>
      new MeasuredGLTFLoader().load(url, resolve, (e) => progress.push(e.loaded / e.total), reject),
    )
    expect(gltf.scene.children).toHaveLength(1)
    expect(progress).toEqual([1])
    expect(asked).toEqual([url])
    // Taken: another load of the URL is the loader's own fetch.
    expect(takePrefetched(url)).toBeNull()
    await load(new MeasuredGLTFLoader(), url)
    expect(asked).toEqual([url, url])
  })

  it('a prefetch that failed leaves the loader to fetch the file, and to report its error', async () => {
    const asked = stubFetch(404)
    const url = 'http://site.test/media/gone.glb?tier=low'
    prefetchModel(url)
    await expect(load(new MeasuredGLTFLoader(), url)).rejects.toThrow(/404/)
    expect(asked).toEqual([url, url])
  })

  it('a file over the cap is given up as its size is known, and the loader fetches it on engagement', async () => {
    // Declared too large: given up on its headers, before its body.
    const asked: string[] = []
    let bodyRead = false
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(String(input))
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            bodyRead = true
            controller.enqueue(glb.slice())
            controller.close()
          },
          // Pulled only when read, not to fill a queue.
        },
        { highWaterMark: 0 },
      )
      init?.signal?.throwIfAborted()
      return new Response(body, {
        headers: { 'content-length': String(PREFETCH_MAX_BYTES + 1) },
      })
    })
    const url = 'http://site.test/media/scan.glb?tier=low'
    await expect(prefetchModel(url)).rejects.toThrow(url)
    expect(bodyRead).toBe(false)
    expect(takePrefetched(url)).toBeNull()
    // A later warm message naming it again fetches nothing.
    expect(prefetchModel(url)).toBeNull()
    expect(asked).toEqual([url])
  })

  it('a file with no declared size is given up once more than the cap has streamed in', async () => {
    const asked: string[] = []
    let sent = 0
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      asked.push(String(input))
      const chunk = new Uint8Array(64 * 1024)
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      return new Response(body)
    })
    const url = 'http://site.test/media/endless.glb?tier=low'
    await expect(prefetchModel(url, 256 * 1024)).rejects.toThrow(url)
    // It stopped reading just past the cap, not at the end of a file that has none.
    expect(sent).toBeLessThanOrEqual(256 * 1024 + 3 * 64 * 1024)
    expect(takePrefetched(url)).toBeNull()
    // The loader, at the engagement, fetches it itself.
    const loaded = stubFetch()
    await load(new MeasuredGLTFLoader(), url)
    expect(loaded).toEqual([url])
  })

  it('a file at the cap is kept, whole', async () => {
    stubFetch()
    const url = 'http://site.test/media/small.glb?tier=low'
    const bytes = await prefetchModel(url, glb.byteLength)
    expect(new Uint8Array(bytes!)).toEqual(glb)
    expect(takePrefetched(url)).not.toBeNull()
  })

  it('a URL nobody prefetched is fetched by the loader as before', async () => {
    const asked = stubFetch()
    const url = 'http://site.test/media/b.glb'
    expect(takePrefetched(url)).toBeNull()
    await load(new MeasuredGLTFLoader(), url)
    expect(asked).toEqual([url])
  })
})

/** A GLB of `json` alone: the 12-byte header, then the JSON chunk padded with spaces. */
function glbOf(json: object): ArrayBuffer {
  let text = JSON.stringify(json)
  while (text.length % 4) text += ' '
  const body = new TextEncoder().encode(text)
  const out = new ArrayBuffer(20 + body.length)
  const view = new DataView(out)
  view.setUint32(0, 0x46546c67, true) // "glTF"
  view.setUint32(4, 2, true)
  view.setUint32(8, out.byteLength, true)
  view.setUint32(12, body.length, true)
  view.setUint32(16, 0x4e4f534a, true) // "JSON"
  new Uint8Array(out, 20).set(body)
  return out
}

describe('the decoders a prefetched model will need', () => {
  it('are read from the GLB JSON chunk, and fetched from the site before the loader asks', async () => {
    const buffer = glbOf({
      asset: { version: '2.0' },
      extensionsUsed: ['KHR_draco_mesh_compression'],
    })
    expect(glbExtensionsUsed(buffer)).toEqual(['KHR_draco_mesh_compression'])
    const asked = stubFetch()
    expect(prefetchDecoders(buffer)).toBe(DECODER_WIRE_BYTES.KHR_draco_mesh_compression)
    const base = new URL(DECODERS_PATH, self.location.origin)
    expect(asked).toEqual([
      new URL('draco_wasm_wrapper.js', base).href,
      new URL('draco_decoder.wasm', base).href,
    ])
  })

  it('only within what is left of the cap, and never a decoder larger than a model (Basis): its loader fetches it once the visitor is here', () => {
    const basis = glbOf({ asset: { version: '2.0' }, extensionsUsed: ['KHR_texture_basisu'] })
    expect(DECODER_WIRE_BYTES.KHR_texture_basisu).toBeGreaterThan(DECODER_PREFETCH_MAX)
    const asked = stubFetch()
    expect(prefetchDecoders(basis)).toBe(0)
    expect(asked.filter((url) => !url.includes('/_next/'))).toEqual([])
    const draco = glbOf({
      asset: { version: '2.0' },
      extensionsUsed: ['KHR_draco_mesh_compression'],
    })
    expect(prefetchDecoders(draco, DECODER_WIRE_BYTES.KHR_draco_mesh_compression - 1)).toBe(0)
    expect(asked.filter((url) => !url.includes('/_next/'))).toEqual([])
  })

  it('none for a model without such extensions, or bytes that are not a GLB', () => {
    const plain = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer
    expect(glbExtensionsUsed(plain)).toEqual([])
    expect(
      glbExtensionsUsed(new TextEncoder().encode('{"asset":{}}').buffer as ArrayBuffer),
    ).toEqual([])
    expect(glbExtensionsUsed(new ArrayBuffer(8))).toEqual([])
    const asked = stubFetch()
    prefetchDecoders(plain)
    expect(asked).toEqual([])
  })
})
