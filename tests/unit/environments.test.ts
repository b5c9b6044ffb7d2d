import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { FloatType } from 'three'
import { HDRLoader } from 'three/examples/jsm/loaders/HDRLoader.js'
import { afterAll, describe, expect, it } from 'vitest'
import {
  downsizeHdr,
  HdrError,
  readHdrHeader,
  writeHdr,
} from '../../services/content-api/environments/hdr'
import {
  environmentFormat,
  inspectEnvironment,
  makeEnvironmentVariant,
} from '../../services/content-api/environments/variants'
import { createMediaHandler } from '../../services/content-api/images/media'

// An environment an editor uploads (rules/look.ts): a Radiance HDR read and written as three's
// HDRLoader reads it, and made as small as each device needs, the largest studio file included.

/** Linear RGB pixels of a test picture: a bright band on the top row, grey elsewhere. */
function picture(width: number, height: number, noise = false): Float32Array {
  const rgb = new Float32Array(width * height * 3)
  let seed = 3
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const light = y < height / 8 ? 16 : 0.5
      const n = noise ? 0.9 + ((seed = (seed * 16807) % 2147483647) / 2147483647) * 0.2 : 1
      rgb.set([light * n, light * 0.5 * n, light * 0.25 * n], (y * width + x) * 3)
    }
  return rgb
}

const parse = (bytes: Uint8Array) =>
  new HDRLoader()
    .setDataType(FloatType)
    .parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)

describe('a Radiance HDR', () => {
  it('is written as three’s HDRLoader reads it, run-length coded, each pixel within RGBE’s precision', () => {
    const rgb = picture(64, 32)
    const bytes = writeHdr(64, 32, rgb)
    expect(readHdrHeader(bytes)).toMatchObject({ width: 64, height: 32 })
    const read = parse(bytes)
    expect([read.width, read.height]).toEqual([64, 32])
    const data = read.data as Float32Array
    for (const i of [0, 3 * 64 + 5, 20 * 64 + 7]) {
      expect(data[i * 4]).toBeCloseTo(rgb[i * 3]!, 0)
      expect(Math.abs(data[i * 4 + 1]! - rgb[i * 3 + 1]!) / rgb[i * 3 + 1]!).toBeLessThan(0.02)
    }
    // Flat rows code as runs: far smaller than four bytes a pixel.
    expect(bytes.length).toBeLessThan(64 * 32)
  })

  it('is made smaller by averaging its pixels, never larger than it was', () => {
    const bytes = writeHdr(512, 256, picture(512, 256, true))
    const small = downsizeHdr(bytes, 64)
    expect([small.width, small.height]).toEqual([64, 32])
    // The top row (all band) averages about 16; the middle about 0.5.
    expect(small.rgb[0]).toBeCloseTo(16, 0)
    expect(small.rgb[(16 * 64 + 10) * 3]).toBeCloseTo(0.5, 1)
    expect(downsizeHdr(bytes, 4096).width).toBe(512)
  })

  it('that is not one, or is not the standard orientation, is refused with a sentence', () => {
    expect(() => readHdrHeader(Buffer.from('PNG…'))).toThrow(HdrError)
    expect(() => readHdrHeader(Buffer.from('#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n'))).toThrow(
      /only 32-bit_rle_rgbe/,
    )
    expect(() => readHdrHeader(Buffer.from('#?RADIANCE\n\n+Y 8 +X 16\n'))).toThrow(
      /-Y height \+X width/,
    )
    const cut = writeHdr(64, 32, picture(64, 32)).subarray(0, 200)
    expect(() => downsizeHdr(cut, 16)).toThrow(/ends before its last scanline/)
  })
})

describe("an environment at each device's size", () => {
  it('a 30 MB HDR reaches a phone as a few kilobytes, and a backdrop at most 2048 px wide', async () => {
    // A photographed studio's size and noise (run-length coding saves nothing on noise).
    const large = writeHdr(4096, 2048, picture(4096, 2048, true))
    expect(large.length).toBeGreaterThan(30_000_000)
    const sizes: Record<string, [number, number, number]> = {}
    for (const [tier, sky] of [
      ['low', false],
      ['low', true],
      ['high', false],
      ['high', true],
    ] as const) {
      const { body, type } = await makeEnvironmentVariant(large, { tier, sky })
      expect(type).toBe('image/vnd.radiance')
      const { width, height } = readHdrHeader(body)
      sizes[`${tier}${sky ? '+sky' : ''}`] = [width, height, body.length]
    }
    expect(sizes).toEqual({
      low: [256, 128, expect.any(Number)],
      'low+sky': [1024, 512, expect.any(Number)],
      high: [1024, 512, expect.any(Number)],
      'high+sky': [2048, 1024, expect.any(Number)],
    })
    expect(sizes.low![2]).toBeLessThan(200_000)
  }, 60_000)

  it('an 8-bit image keeps its format, at the width of its tier', async () => {
    const jpeg = await sharp({
      create: { width: 2048, height: 1024, channels: 3, background: '#88aacc' },
    })
      .jpeg()
      .toBuffer()
    expect(environmentFormat(jpeg)).toBe('jpeg')
    const { body, type } = await makeEnvironmentVariant(jpeg, { tier: 'low', sky: false })
    expect(type).toBe('image/jpeg')
    expect(await inspectEnvironment(body)).toEqual({ width: 256, height: 128, format: 'jpeg' })
  })

  describe('from the media route, as the renderer asks for it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-environments-'))
    const media = path.join(dir, 'media')
    mkdirSync(path.join(media, 'environments'), { recursive: true })
    const hdr = path.join(media, 'environments', 'studio.hdr')
    writeFileSync(hdr, readFileSync('content/media/environments/studio.hdr'))
    const handler = createMediaHandler({ dir: path.join(dir, 'cache'), maxBytes: 2 ** 26 })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const get = (query: string, headers: Record<string, string> = {}) =>
      handler.serve(
        new Request(`http://site/media/environments/studio.hdr${query}`, { headers }),
        hdr,
      )

    it("answers each tier's size with its type, once made, and a 304 for its ETag", async () => {
      const original = await get('')
      expect(original.headers.get('content-type')).toBe('image/vnd.radiance')
      expect((await original.arrayBuffer()).byteLength).toBe(readFileSync(hdr).length)
      const low = await get('?tier=low')
      expect(low.status).toBe(200)
      const header = readHdrHeader(new Uint8Array(await low.arrayBuffer()))
      expect([header.width, header.height]).toEqual([256, 128])
      const again = await get('?tier=low', { 'if-none-match': low.headers.get('etag')! })
      expect(again.status).toBe(304)
      const sky = readHdrHeader(new Uint8Array(await (await get('?tier=high&sky=1')).arrayBuffer()))
      expect(sky.width).toBe(2048)
    })
  })
})
