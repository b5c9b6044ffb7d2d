import http from 'node:http'
import zlib from 'node:zlib'
import { expect, test } from '@playwright/test'
import { REVISION } from 'three'
import { DECODER_FILES, DECODER_WIRE_BYTES } from '../../src/three/render/decoders'

// How the production server (server/index.mjs) delivers a page: scripts after the first paint,
// static assets from their Brotli copies with the compile hint (docs/performance.md).

test('a page arrives without chunk scripts, paints, then loads them and hydrates', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/en-us/contact')).text()
  expect(html).not.toMatch(/<script src="\/_next\/static\/[^"]+\.js" async="">/)
  expect(html).not.toMatch(/<link rel="preload" as="script"/)
  const loader = /<script>(\(function\(s\)[\s\S]*?)<\/script><\/body>/.exec(html)
  expect(loader, 'the loader ends the body').not.toBeNull()

  const chunks: string[] = []
  page.on('request', (r) => r.url().includes('/_next/static/chunks/') && chunks.push(r.url()))
  await page.goto('/en-us/contact')
  // The scripts the loader names are fetched, and React takes over the server-rendered form.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const form = document.querySelector('form')
        return !!form && Object.keys(form).some((key) => key.startsWith('__react'))
      }),
    )
    .toBe(true)
  const named = JSON.parse(/\((\[[^\]]*\])\)$/.exec(loader![1])![1]) as string[]
  for (const src of named)
    expect(
      chunks.some((url) => url.endsWith(src)),
      src,
    ).toBe(true)
})

test('a static chunk is served from its Brotli copy, compile hint first', async ({ request }) => {
  const html = await (await request.get('/en-us')).text()
  const src = /\["(\/_next\/static\/chunks\/[^"]+\.js)"/.exec(html)![1]
  const res = await request.get(src, { headers: { 'accept-encoding': 'br' } })
  expect(res.status()).toBe(200)
  expect(res.headers()['content-encoding']).toBe('br')
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(res.headers()['x-content-type-options']).toBe('nosniff')
  expect((await res.text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true)
})

/** Whether React has hydrated the page: it keeps its fiber on the elements it took over. */
const hydrated = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const link = document.querySelector('main a, header a')
    return !!link && Object.keys(link).some((key) => key.startsWith('__react'))
  })

test('the scripts wait for the hero image: requested only once it has arrived', async ({
  page,
}) => {
  await page.goto('/en-us/showcase')
  await expect.poll(() => hydrated(page)).toBe(true)
  const { hero, firstScript } = await page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('img[fetchpriority=high]')!
    const entry = performance.getEntriesByName(img.currentSrc)[0] as PerformanceResourceTiming
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => /\/_next\/static\/chunks\/[^/]+\.js$/.test(e.name))
    return {
      hero: entry?.responseEnd ?? null,
      firstScript: Math.min(...scripts.map((e) => e.startTime)),
    }
  })
  expect(hero, 'the hero image was fetched').not.toBeNull()
  expect(firstScript).toBeGreaterThanOrEqual(hero!)
})

test('a hero image that never arrives does not keep the page from its scripts', async ({
  page,
}) => {
  // The hero's poster hangs (a stalled connection); the page must still hydrate.
  const held: import('@playwright/test').Route[] = []
  await page.route('**/posters/hero-knot.*', (route) => void held.push(route))
  await page.goto('/en-us/showcase', { waitUntil: 'domcontentloaded' })
  await expect.poll(() => held.length).toBeGreaterThan(0)
  await expect.poll(() => hydrated(page)).toBe(true)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  for (const route of held) await route.abort().catch(() => {})
})

test('on the journal and the work pages, the first card’s cover (the largest paint) is eager and high priority, the rest lazy', async ({
  request,
}) => {
  for (const path of ['/en-us/journal', '/en-us/work']) {
    const html = await (await request.get(path)).text()
    const covers = html.match(/<img[^>]*class="card-image"[^>]*>/g) ?? []
    expect(covers.length, path).toBeGreaterThan(1)
    expect(covers[0], path).toContain('fetchPriority="high"')
    expect(covers[0], path).toContain('loading="eager"')
    for (const cover of covers.slice(1)) {
      expect(cover, path).toContain('loading="lazy"')
      expect(cover, path).not.toContain('fetchPriority')
    }
  }
})

test('the site’s icon is in the page itself: no request for it competes with the largest paint', async ({
  page,
}) => {
  const asked: string[] = []
  page.on('request', (r) => asked.push(new URL(r.url()).pathname))
  await page.goto('/en-us/work')
  await expect.poll(() => hydrated(page)).toBe(true)
  const icon = await page.locator('link[rel="icon"]').getAttribute('href')
  expect(icon).toMatch(/^data:image\/svg\+xml,/)
  expect(asked.filter((path) => /icon|favicon/.test(path))).toEqual([])
})

/** `path` from the site as it goes over the wire: its status, type, encoding and body as sent. */
function raw(baseURL: string, path: string, acceptEncoding: string) {
  return new Promise<{ status: number; type: string; encoding: string; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(new URL(path, baseURL), { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type'] ?? ''),
              encoding: String(res.headers['content-encoding'] ?? ''),
              body: Buffer.concat(chunks),
            }),
          )
          res.on('error', reject)
        })
        .on('error', reject)
    },
  )
}

test('everything compressible goes out compressed to a browser that asks for Brotli: the same bytes, fewer of them', async ({
  request,
  baseURL,
}) => {
  const html = await (await request.get('/en-us/showcase')).text()
  const chunk = /\["(\/_next\/static\/chunks\/[^"]+\.js)"/.exec(html)![1]!
  // The media the showcase's documents link to, as the stand-in answers them.
  const api = (await (await request.get('/local/prismic/api/v2')).json()) as {
    refs: { ref: string; isMasterRef: boolean }[]
  }
  const ref = api.refs.find((r) => r.isMasterRef)!.ref
  const search = `/local/prismic/api/v2/documents/search?ref=${encodeURIComponent(ref)}&pageSize=100`
  const documents = await (await request.get(search)).text()
  const media = (file: string) => {
    const url = new URL(new RegExp(`"(http[^"]+/${file}\\?[^"]*)"`).exec(documents)![1]!)
    return url.pathname + url.search
  }
  const lamp = media('models/lamp\\.glb')
  const decoders = `/3d-decoders/r${REVISION}/`
  const kinds: [string, string, RegExp][] = [
    ['a chunk of script', chunk, /javascript/],
    ['the Draco decoder', `${decoders}draco_decoder.wasm`, /^application\/wasm/],
    ['its wrapper', `${decoders}draco_wasm_wrapper.js`, /javascript/],
    ['the Basis transcoder', `${decoders}basis_transcoder.wasm`, /^application\/wasm/],
    ['its worker', `${decoders}ktx2_transcoder.worker.js`, /javascript/],
    ["the stand-in's API", '/local/prismic/api/v2', /^application\/json/],
    ["the stand-in's search", search, /^application\/json/],
    ['an SVG image', media('images/[^"/?]+\\.svg'), /^image\/svg\+xml/],
    ['the sitemap', '/sitemap.xml', /xml/],
    ["a phone's model", `${lamp}&tier=low`, /^model\/gltf-binary/],
    ["AR's model", `${lamp}&tier=ar`, /^model\/gltf-binary/],
    ["AR Quick Look's USDZ", `${lamp}&tier=ar&format=usdz`, /^model\/vnd\.usdz\+zip/],
    ['an environment HDR', `${media('environments/studio\\.hdr')}&tier=low`, /radiance/],
  ]
  const sizes: string[] = []
  for (const [kind, path, type] of kinds) {
    const plain = await raw(baseURL!, path, 'identity')
    expect(plain.status, `${kind}: ${path}`).toBe(200)
    expect(plain.encoding, kind).toBe('')
    const br = await raw(baseURL!, path, 'br')
    expect(br.status, kind).toBe(200)
    expect(br.type, kind).toMatch(type)
    expect(br.encoding, `${kind} (${path})`).toBe('br')
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body), kind).toBe(true)
    expect(br.body.length, kind).toBeLessThan(plain.body.length)
    sizes.push(`${kind}: ${plain.body.length} → ${br.body.length}`)
  }
  // The warm-up counts each decoder at its size on the wire (gltf-loader.ts): never less than sent.
  for (const [extension, files] of Object.entries(DECODER_FILES)) {
    let sent = 0
    for (const file of files) sent += (await raw(baseURL!, `${decoders}${file}`, 'br')).body.length
    expect(DECODER_WIRE_BYTES[extension], extension).toBeGreaterThanOrEqual(sent)
    expect(DECODER_WIRE_BYTES[extension], extension).toBeLessThan(sent * 1.1)
  }
  // A browser that asks for gzip only gets gzip.
  const gzip = await raw(baseURL!, `${decoders}draco_decoder.wasm`, 'gzip')
  expect(gzip.encoding).toBe('gzip')
  expect(zlib.gunzipSync(gzip.body).length).toBe(
    (await raw(baseURL!, `${decoders}draco_decoder.wasm`, 'identity')).body.length,
  )
  test.info().annotations.push({ type: 'bytes', description: sizes.join('; ') })
})
