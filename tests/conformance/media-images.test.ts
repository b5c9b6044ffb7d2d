import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContentInvalidError, createContentApi } from '@services/content-api/app'
import { serveContentApi, type Served } from './helpers'

// The embedded content API's media route as Prismic's image CDN (imgix) answers, over a real
// socket: sizes, formats by Accept, crops, caching, clamping. The sources are made here with
// sharp, so every expected pixel and size comes from the fixture, not from the service.

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
const QUADRANTS = {
  topLeft: [220, 30, 30],
  topRight: [30, 200, 60],
  bottomLeft: [40, 60, 220],
  bottomRight: [240, 240, 240],
} as const

/** A 1600 × 900 photograph stand-in: four flat quadrants, so a crop is checkable by colour. */
async function quadrantJpeg(): Promise<Buffer> {
  const [w, h] = [1600, 900]
  const raw = Buffer.alloc(w * h * 3)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const q =
        y < h / 2
          ? x < w / 2
            ? QUADRANTS.topLeft
            : QUADRANTS.topRight
          : x < w / 2
            ? QUADRANTS.bottomLeft
            : QUADRANTS.bottomRight
      raw.set(q, (y * w + x) * 3)
    }
  }
  // A little noise, so encoders have detail to spend bytes on and sizes differ by width.
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .composite([{ input: await noise(w, h), blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer()
}

async function noise(w: number, h: number): Promise<Buffer> {
  return sharp({
    create: {
      width: w,
      height: h,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .png()
    .toBuffer()
}

/** The mean colour of an image's pixels. */
async function meanColour(body: Buffer): Promise<number[]> {
  const stats = await sharp(body).stats()
  return stats.channels.slice(0, 3).map((c) => Math.round(c.mean))
}

function near(actual: number[], expected: readonly number[], tolerance = 25) {
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(tolerance))
}

function writeJson(file: string, value: unknown) {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

/** A content folder with its own model: an image field with a constraint and two thumbnails. */
async function fixture(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-media-'))
  mkdirSync(path.join(dir, 'media/images'), { recursive: true })
  writeFileSync(path.join(dir, 'media/images/quadrants.jpg'), await quadrantJpeg())
  writeFileSync(
    path.join(dir, 'media/images/shape.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>',
  )
  writeFileSync(path.join(dir, 'media/model.glb'), Buffer.from('glTF-binary-stand-in'))
  writeJson(path.join(dir, 'customtypes/card/index.json'), {
    id: 'card',
    label: 'Card',
    repeatable: true,
    json: {
      Main: {
        uid: { type: 'UID', config: { label: 'UID' } },
        photo: {
          type: 'Image',
          config: {
            label: 'Photo',
            constraint: {},
            thumbnails: [
              { name: 'square', width: 300, height: 300 },
              { name: 'banner', width: 800, height: 200 },
            ],
          },
        },
        poster: {
          type: 'Image',
          config: { label: 'Poster', constraint: { width: 400, height: 400 }, thumbnails: [] },
        },
        vector: { type: 'Image', config: { label: 'Vector', constraint: {}, thumbnails: [] } },
      },
    },
  })
  writeJson(path.join(dir, 'documents/card/one/en-us.json'), {
    uid: 'one',
    data: {
      // The editor's crop: the top-right quadrant.
      photo: {
        media: 'images/quadrants.jpg',
        alt: 'Green corner',
        crop: { x: 800, y: 0, width: 800, height: 450 },
        banner: { crop: { x: 0, y: 700, width: 1600, height: 200 } },
      },
      poster: { media: 'images/quadrants.jpg', alt: 'Centred square' },
      vector: { media: 'images/shape.svg', alt: 'A shape' },
    },
  })
  return dir
}

/** The fixture's content served by the content API, with a media cache of its own; `close`
 * stops it and removes both folders. */
async function serveFixture(): Promise<{
  dir: string
  served: Served
  close: () => Promise<void>
}> {
  const dir = await fixture()
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'facet-media-cache-'))
  const served = await serveContentApi({
    contentDir: dir,
    modelsDir: dir,
    mediaCache: { dir: cacheDir, maxBytes: 50 * 1024 * 1024 },
  })
  return {
    dir,
    served,
    close: async () => {
      await served.close()
      rmSync(dir, { recursive: true, force: true })
      rmSync(cacheDir, { recursive: true, force: true })
    },
  }
}

describe('the media route (imgix parameters)', () => {
  let dir: string
  let served: Served
  const media = (query = '', file = 'images/quadrants.jpg') =>
    `${served.origin}/media/${file}${query}`
  const get = async (url: string, accept = CHROME_ACCEPT, headers: HeadersInit = {}) => {
    const response = await fetch(url, { headers: { accept, ...headers } })
    return { response, body: Buffer.from(await response.arrayBuffer()) }
  }

  let close = async () => {}
  beforeAll(async () => {
    ;({ dir, served, close } = await serveFixture())
  })
  afterAll(() => close())

  it('answers each width asked for, with sizes that grow with the width', async () => {
    const sizes: number[] = []
    for (const w of [320, 640, 1200]) {
      const { response, body } = await get(media(`?auto=format,compress&w=${w}`))
      expect(response.status).toBe(200)
      const meta = await sharp(body).metadata()
      expect(meta.width).toBe(w)
      expect(meta.height).toBe(Math.round((w * 900) / 1600))
      expect(Number(response.headers.get('content-length'))).toBe(body.length)
      sizes.push(body.length)
    }
    expect(sizes[0]).toBeLessThan(sizes[1]!)
    expect(sizes[1]).toBeLessThan(sizes[2]!)
  })

  it('negotiates AVIF, then WebP, then the source format by Accept under auto=format', async () => {
    const avif = await get(media('?auto=format&w=200'), CHROME_ACCEPT)
    const webp = await get(media('?auto=format&w=200'), 'image/webp,*/*')
    const jpeg = await get(media('?auto=format&w=200'), '*/*')
    expect(avif.response.headers.get('content-type')).toBe('image/avif')
    expect((await sharp(avif.body).metadata()).format).toBe('heif')
    expect(webp.response.headers.get('content-type')).toBe('image/webp')
    expect((await sharp(webp.body).metadata()).format).toBe('webp')
    expect(jpeg.response.headers.get('content-type')).toBe('image/jpeg')
    expect((await sharp(jpeg.body).metadata()).format).toBe('jpeg')
    for (const { response } of [avif, webp, jpeg]) {
      expect(response.headers.get('vary')).toBe('Accept')
      // No `v=` naming the file's bytes: a shared cache must ask again each time.
      expect(response.headers.get('cache-control')).toBe('public, no-cache')
    }
    // Different bytes, so different validators: a cache keyed by URL alone would mix them up.
    expect(avif.response.headers.get('etag')).not.toBe(webp.response.headers.get('etag'))
    // fm wins over Accept.
    const png = await get(media('?auto=format&fm=png&w=50'))
    expect(png.response.headers.get('content-type')).toBe('image/png')
  })

  it('cuts the rect before resizing (pixels of the chosen quadrant only)', async () => {
    const green = await get(media('?rect=800,0,800,450&w=400'), 'image/jpeg')
    expect(await sharp(green.body).metadata()).toMatchObject({ width: 400, height: 225 })
    near(await meanColour(green.body), QUADRANTS.topRight)
    const blue = await get(media('?rect=0,0.5,0.5,0.5'), 'image/jpeg')
    expect(await sharp(blue.body).metadata()).toMatchObject({ width: 800, height: 450 })
    near(await meanColour(blue.body), QUADRANTS.bottomLeft)
  })

  it('fits as imgix does: crop fills the box, clip and max keep the shape, fill pads, ar shapes', async () => {
    const size = async (query: string) => {
      const meta = await sharp((await get(media(query), 'image/jpeg')).body).metadata()
      return [meta.width, meta.height]
    }
    expect(await size('?w=300&h=300&fit=crop')).toEqual([300, 300])
    expect(await size('?w=300&h=300&fit=clip')).toEqual([300, 169])
    expect(await size('?w=3200&fit=max')).toEqual([1600, 900])
    // imgix grows it to 3200 × 1800; local mode never makes more pixels than the source has.
    expect(await size('?w=3200&fit=clip')).toEqual([1600, 900])
    expect(await size('?w=3200&h=3200&fit=fill')).toEqual([1200, 1200])
    expect(await size('?w=300&h=300&fit=fill')).toEqual([300, 300])
    expect(await size('?w=400&ar=1:1&fit=crop')).toEqual([400, 400])
    expect(await size('?w=200&dpr=2')).toEqual([400, 225])
    expect(await size('?w=0.25')).toEqual([400, 225])
    // Exactly the width asked for, even where the height rounds down (57 px high is 101.3 wide).
    expect(await size('?w=102')).toEqual([102, 57])
    // A centre crop of the whole image keeps the four quadrants in balance.
    const square = (await get(media('?w=300&h=300&fit=crop'), 'image/jpeg')).body
    near(await meanColour(square), [133, 133, 138], 30)
  })

  it('makes a variant once when many ask for it at the same time', async () => {
    const before = served.api.mediaStats().made
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => get(media('?w=777&auto=format,compress'))),
    )
    expect(served.api.mediaStats().made).toBe(before + 1)
    for (const { response, body } of answers) {
      expect(response.status).toBe(200)
      expect(body.equals(answers[0]!.body)).toBe(true)
    }
    // Asked again later: from the disk cache, not made again.
    await get(media('?w=777&auto=format,compress'))
    expect(served.api.mediaStats().made).toBe(before + 1)
  })

  it('answers 304 to a request that already holds the ETag', async () => {
    const first = await get(media('?w=120&auto=format'))
    const etag = first.response.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await get(media('?w=120&auto=format'), CHROME_ACCEPT, { 'if-none-match': etag })
    expect(again.response.status).toBe(304)
    expect(again.body.length).toBe(0)
    expect(again.response.headers.get('etag')).toBe(etag)
  })

  it('clamps or ignores bad parameters as imgix does, never failing', async () => {
    const cases: [string, number, number][] = [
      ['?w=abc&h=-4&fit=nonsense&rect=1,2,three&ar=x:y&q=abc', 1600, 900],
      ['?w=100&dpr=50', 500, 281], // dpr at most 5
      ['?w=100&q=900&auto=compress', 100, 56], // q at most 100
      ['?rect=1500,800,5000,5000', 100, 100], // a rect past the edge keeps what is inside
      ['?w=20000&fit=clip', 1600, 900], // at most 8192 px a side, and the source's pixels
    ]
    for (const [query, width, height] of cases) {
      const { response, body } = await get(media(query), 'image/jpeg')
      expect(response.status, query).toBe(200)
      expect(await sharp(body).metadata(), query).toMatchObject({ width, height })
    }
  })

  it('answers 404 for a missing file and for a path out of the media folder', async () => {
    expect((await get(media('?w=100', 'images/missing.jpg'))).response.status).toBe(404)
    expect((await get(media('', 'images/missing.jpg'))).response.status).toBe(404)
    expect(
      (await get(`${served.origin}/media/..%2Fdocuments%2Fcard%2Fone%2Fen-us.json`)).response
        .status,
    ).toBe(404)
  })

  it('passes SVG, GLB and an image asked for as it is through unchanged', async () => {
    const svg = await get(media('?w=10&auto=format,compress', 'images/shape.svg'))
    expect(svg.response.headers.get('content-type')).toBe('image/svg+xml')
    expect(svg.body.toString()).toContain('<rect width="40"')
    const glb = await get(media('?w=10', 'model.glb'))
    expect(glb.response.headers.get('content-type')).toBe('model/gltf-binary')
    expect(glb.body.toString()).toBe('glTF-binary-stand-in')
    const original = await get(media(''))
    expect(original.body.equals(readFileSync(path.join(dir, 'media/images/quadrants.jpg')))).toBe(
      true,
    )
  })

  it('returns image fields in Prismic shape: crop in url, dimensions after it, edit, thumbnails', async () => {
    type Card = prismic.PrismicDocument<
      {
        photo: prismic.ImageField<'square' | 'banner'>
        poster: prismic.ImageField
        vector: prismic.ImageField
      },
      'card'
    >
    const client = prismic.createClient<Card>('facet-media', {
      documentAPIEndpoint: served.endpoint,
    })
    const card = await client.getByUID('card', 'one')
    const photo = card.data.photo
    const base = `${served.origin}/media/images/quadrants.jpg`
    const v = /[?&]v=([\w-]{12})$/.exec(photo.url!)?.[1]
    expect(photo).toMatchObject({
      url: `${base}?auto=compress,format&rect=800,0,800,450&w=800&h=450&v=${v}`,
      alt: 'Green corner',
      dimensions: { width: 800, height: 450 },
      edit: { x: 800, y: 0, zoom: 2, background: 'transparent' },
    })
    // Named in the model, left out of the document: the largest centred square, 300 × 300.
    expect(photo.square).toMatchObject({
      url: `${base}?auto=compress,format&rect=350,0,900,900&w=300&h=300&v=${v}`,
      dimensions: { width: 300, height: 300 },
      alt: 'Green corner',
    })
    // Written as a crop: cut there, sized to the model's 800 × 200.
    expect(photo.banner).toMatchObject({
      url: `${base}?auto=compress,format&rect=0,700,1600,200&w=800&h=200&v=${v}`,
      dimensions: { width: 800, height: 200 },
    })
    expect(card.data.poster.dimensions).toEqual({ width: 400, height: 400 })
    expect(card.data.vector).toMatchObject({
      url: expect.stringMatching(
        new RegExp(
          `^${served.origin}/media/images/shape\\.svg\\?auto=compress,format&v=[\\w-]{12}$`,
        ),
      ),
      dimensions: { width: 40, height: 20 },
    })

    // Each URL the official helpers build answers the size it names, with the crop applied.
    const green = await get(prismic.asImageSrc(photo)!, 'image/jpeg')
    expect(await sharp(green.body).metadata()).toMatchObject({ width: 800, height: 450 })
    near(await meanColour(green.body), QUADRANTS.topRight)
    const banner = await get(prismic.asImageSrc(photo.banner)!, 'image/jpeg')
    near(await meanColour(banner.body), [140, 150, 230], 40)
    const { srcset } = prismic.asImageWidthSrcSet(photo, { widths: [200, 400] })!
    for (const candidate of srcset.split(', ')) {
      const [url, descriptor] = candidate.split(' ')
      const { body } = await get(url!)
      expect((await sharp(body).metadata()).width).toBe(Number(descriptor!.replace('w', '')))
    }
    const density = prismic.asImagePixelDensitySrcSet(photo.square, { pixelDensities: [1, 2] })!
    const [, twice] = density.srcset.split(', ')
    const { body } = await get(twice!.split(' ')[0]!)
    expect(await sharp(body).metadata()).toMatchObject({ width: 600, height: 600 })
  })

  it('keeps the disk cache within its bound, least recently used first', async () => {
    const smallDir = mkdtempSync(path.join(os.tmpdir(), 'facet-media-small-'))
    const small = await serveContentApi({
      contentDir: dir,
      modelsDir: dir,
      mediaCache: { dir: smallDir, maxBytes: 4_000 },
    })
    try {
      for (const w of [100, 150, 200, 250, 300, 350]) {
        // Each variant is about 1 to 4 KB: six of them do not fit in 4 KB.
        const r = await fetch(`${small.origin}/media/images/quadrants.jpg?w=${w}`, {
          headers: { accept: 'image/webp' },
        })
        expect(r.status).toBe(200)
      }
      const stats = small.api.mediaStats()
      expect(stats.made).toBe(6)
      expect(stats.bytes).toBeLessThanOrEqual(4_000)
      expect(stats.entries).toBeLessThan(6)
    } finally {
      await small.close()
      rmSync(smallDir, { recursive: true, force: true })
    }
  })
})

describe('media URLs name their bytes, and renders are bounded', () => {
  let dir: string
  let served: Served

  let close = async () => {}
  beforeAll(async () => {
    ;({ dir, served, close } = await serveFixture())
  })
  afterAll(() => close())

  const poster = async () => {
    type Card = prismic.PrismicDocument<{ poster: prismic.ImageField }, 'card'>
    const client = prismic.createClient<Card>('facet-media', {
      documentAPIEndpoint: served.endpoint,
    })
    return (await client.getByUID('card', 'one')).data.poster as prismic.FilledImageFieldImage
  }

  it('serves the URL it gives as immutable, and a replaced file under a new URL', async () => {
    const before = (await poster()).url
    expect(before).toMatch(/[?&]v=[\w-]{12}$/)
    const kept = await fetch(before, { headers: { accept: 'image/jpeg' } })
    expect(kept.status).toBe(200)
    expect(kept.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const unversioned = await fetch(before.replace(/[?&]v=[\w-]+$/, ''))
    expect(unversioned.headers.get('cache-control')).toBe('public, no-cache')

    // The editor replaces the file (same name), and publishes.
    const file = path.join(dir, 'media/images/quadrants.jpg')
    const red = await sharp({
      create: { width: 1600, height: 900, channels: 3, background: '#d01010' },
    })
      .jpeg()
      .toBuffer()
    writeFileSync(file, red)
    served.api.reload()
    const after = (await poster()).url
    expect(after).not.toBe(before)
    const fresh = await fetch(after, { headers: { accept: 'image/jpeg' } })
    expect(fresh.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    near(await meanColour(Buffer.from(await fresh.arrayBuffer())), [208, 16, 16])
    // The old URL no longer names these bytes: no longer immutable.
    const stale = await fetch(before, { headers: { accept: 'image/jpeg' } })
    expect(stale.headers.get('cache-control')).toBe('public, no-cache')
  })

  it('refuses made-up renders past the bound at once (503, Retry-After), and renders a page’s widths meanwhile', async () => {
    const base = `${served.origin}/media/images/quadrants.jpg`
    const finished: string[] = []
    // One client: 12 unique renders, each of a quality of its own, the slowest format.
    const made = Array.from({ length: 12 }, (_, i) =>
      fetch(`${base}?w=1600&fm=avif&q=${88 + i}`).then(async (response) => {
        finished.push(response.status === 200 ? 'made' : 'refused')
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.arrayBuffer(),
        }
      }),
    )
    // A visitor's page asks for a srcset width, not made yet.
    const page = await fetch(`${base}?auto=format,compress&width=640`, {
      headers: { accept: CHROME_ACCEPT },
    })
    finished.push('page')
    expect(page.status).toBe(200)
    expect((await sharp(Buffer.from(await page.arrayBuffer())).metadata()).width).toBe(640)

    const answers = await Promise.all(made)
    const refused = answers.filter((a) => a.status === 503)
    // One renders, two wait: the rest are refused, each telling when to come back.
    expect(refused.length).toBeGreaterThanOrEqual(6)
    for (const answer of refused) expect(answer.retryAfter).toBe('2')
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true)
    // The visitor's image was answered before the client's admitted renders were all done.
    expect(finished.indexOf('page')).toBeLessThan(finished.lastIndexOf('made'))
  })
})

describe('crops in the content format', () => {
  it('refuses a crop that runs past the image, naming the file and the field', async () => {
    const dir = await fixture()
    try {
      writeJson(path.join(dir, 'documents/card/one/en-us.json'), {
        uid: 'one',
        data: {
          photo: { media: 'images/quadrants.jpg', crop: { x: 1000, y: 0, width: 800, height: 10 } },
          poster: { media: 'images/shape.svg', crop: { x: 0, y: 0, width: 1, height: 1 } },
        },
      })
      let report = ''
      try {
        createContentApi({ contentDir: dir, modelsDir: dir }).close()
      } catch (error) {
        expect(error).toBeInstanceOf(ContentInvalidError)
        report = (error as Error).message
      }
      expect(report).toContain(
        'documents/card/one/en-us.json $.data.photo.crop: runs past the image (1600 × 900)',
      )
      expect(report).toContain('$.data.poster.crop: cannot apply: only raster images')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
