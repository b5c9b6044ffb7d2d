import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPILE_HINT, finishBuild, initialScriptFiles } from '../../scripts/lib/static-assets.mjs'
import { acceptsBrotli, createStaticHandler } from '../../server/static-assets.mjs'

/** A build folder shaped like Next's: manifests, one prerendered page, static chunks. */
function fakeBuild() {
  const dist = mkdtempSync(path.join(tmpdir(), 'facet-static-'))
  const chunks = path.join(dist, 'static', 'chunks')
  mkdirSync(chunks, { recursive: true })
  mkdirSync(path.join(dist, 'server', 'app', 'en-us'), { recursive: true })
  const big = (name: string) => `/* ${name} */\n` + 'function f(){return 1}\n'.repeat(200)
  writeFileSync(path.join(chunks, 'framework.js'), big('framework'))
  writeFileSync(path.join(chunks, 'page.js'), big('page'))
  writeFileSync(path.join(chunks, 'lazy-3d.js'), big('lazy'))
  writeFileSync(path.join(chunks, 'tiny.js'), 'x()')
  writeFileSync(path.join(chunks, 'site.css'), 'body{color:red}\n'.repeat(100))
  writeFileSync(path.join(chunks, 'font.woff2'), Buffer.alloc(2000, 7))
  writeFileSync(
    path.join(dist, 'build-manifest.json'),
    JSON.stringify({ rootMainFiles: ['static/chunks/framework.js'], polyfillFiles: [] }),
  )
  writeFileSync(
    path.join(dist, 'server', 'app', 'en-us', 'about.html'),
    '<html><head><script src="/_next/static/chunks/page.js" async=""></script></head></html>',
  )
  // Route answers Next.js prerendered: a decoder that never changes under its URL, a sitemap that
  // does, and a decoder-like file of a type that does not compress.
  const routes = path.join(dist, 'server', 'app', '3d-decoders', 'r1')
  mkdirSync(routes, { recursive: true })
  const route = (file: string, type: string, cacheControl: string, body: string) => {
    writeFileSync(path.join(routes, `${file}.body`), body)
    writeFileSync(
      path.join(routes, `${file}.meta`),
      JSON.stringify({
        status: 200,
        headers: { 'cache-control': cacheControl, 'content-type': type, 'x-next-cache-tags': 't' },
      }),
    )
  }
  route('decoder.wasm', 'application/wasm', 'public, max-age=31536000, immutable', big('wasm'))
  route('worker.js', 'text/javascript', 'public, max-age=31536000, immutable', big('worker'))
  route('sitemap.xml', 'application/xml', 'public, max-age=0, s-maxage=60', big('sitemap'))
  route('image.png', 'image/png', 'public, max-age=31536000, immutable', big('png'))
  writeFileSync(
    path.join(dist, 'routes-manifest.json'),
    JSON.stringify({
      headers: [
        {
          source: '/((?!slice-simulator).*)',
          regex: '^(?:/((?!slice-simulator).*))(?:/)?$',
          headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }],
        },
      ],
    }),
  )
  return dist
}

describe('finishBuild', () => {
  it('hints the scripts pages load up front, and only those, once', () => {
    const dist = fakeBuild()
    expect(initialScriptFiles(dist)).toEqual([
      'static/chunks/framework.js',
      'static/chunks/page.js',
    ])
    const { hinted } = finishBuild(dist)
    expect(hinted.sort()).toEqual(['static/chunks/framework.js', 'static/chunks/page.js'])
    const read = (name: string) => readFileSync(path.join(dist, 'static', 'chunks', name), 'utf8')
    expect(read('framework.js').startsWith(COMPILE_HINT)).toBe(true)
    expect(read('page.js').startsWith(COMPILE_HINT)).toBe(true)
    expect(read('lazy-3d.js').startsWith('/* lazy */')).toBe(true)
    // Run again: nothing is hinted twice.
    expect(finishBuild(dist).hinted).toEqual([])
    expect(read('framework.js').split(COMPILE_HINT).length).toBe(2)
  })

  it('writes Brotli copies that decompress to the file, skipping tiny and binary ones', () => {
    const dist = fakeBuild()
    const { compressed } = finishBuild(dist)
    const chunks = path.join(dist, 'static', 'chunks')
    for (const name of ['framework.js', 'page.js', 'lazy-3d.js', 'site.css']) {
      const copy = brotliDecompressSync(readFileSync(path.join(chunks, `${name}.br`)))
      expect(copy.equals(readFileSync(path.join(chunks, name))), name).toBe(true)
    }
    expect(existsSync(path.join(chunks, 'tiny.js.br'))).toBe(false)
    expect(existsSync(path.join(chunks, 'font.woff2.br'))).toBe(false)
    // …and the prerendered route answers that never change and compress.
    const routes = path.join(dist, 'server', 'app', '3d-decoders', 'r1')
    for (const name of ['decoder.wasm', 'worker.js']) {
      const copy = brotliDecompressSync(readFileSync(path.join(routes, `${name}.body.br`)))
      expect(copy.equals(readFileSync(path.join(routes, `${name}.body`))), name).toBe(true)
    }
    expect(existsSync(path.join(routes, 'sitemap.xml.body.br'))).toBe(false)
    expect(existsSync(path.join(routes, 'image.png.body.br'))).toBe(false)
    expect(compressed).toBe(6)
  })

  it('names the folder when there is no build', () => {
    expect(() => finishBuild(path.join(tmpdir(), 'facet-no-such-build'))).toThrow(
      /facet-no-such-build.*static does not exist/,
    )
  })
})

describe('acceptsBrotli', () => {
  it('reads Accept-Encoding as browsers send it', () => {
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true)
    expect(acceptsBrotli('br;q=0.5, gzip')).toBe(true)
    expect(acceptsBrotli('gzip, br;q=0')).toBe(false)
    expect(acceptsBrotli('gzip, deflate')).toBe(false)
    expect(acceptsBrotli(undefined)).toBe(false)
    expect(acceptsBrotli('brotli')).toBe(false)
  })
})

describe('createStaticHandler without the routes manifest', () => {
  it('serves no copy, so no asset goes out without the configured headers', () => {
    const dist = fakeBuild()
    finishBuild(dist)
    rmSync(path.join(dist, 'routes-manifest.json'))
    const serve = createStaticHandler(dist)
    const req = {
      method: 'GET',
      url: '/_next/static/chunks/framework.js',
      headers: { 'accept-encoding': 'br' },
    } as unknown as IncomingMessage
    expect(serve(req, {} as ServerResponse)).toBe(false)
  })
})

describe('createStaticHandler', () => {
  let server: Server
  let origin = ''
  let dist = ''
  beforeAll(async () => {
    dist = fakeBuild()
    finishBuild(dist)
    const serve = createStaticHandler(dist)
    server = createServer((req, res) => {
      if (serve(req, res)) return
      res.statusCode = 299 // what Next.js would have answered
      res.end('fell through')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('serves the Brotli copy with the configured headers and immutable caching', async () => {
    const res = await fetch(`${origin}/_next/static/chunks/framework.js`, {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('br')
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=UTF-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    // fetch decodes Brotli: the client sees the file itself, compile hint first.
    const text = await res.text()
    expect(text).toBe(readFileSync(path.join(dist, 'static', 'chunks', 'framework.js'), 'utf8'))
    expect(text.startsWith(COMPILE_HINT)).toBe(true)
  })

  it('serves a prerendered immutable answer (a decoder) from its Brotli copy, with its own type', async () => {
    for (const [url, type] of [
      ['/3d-decoders/r1/decoder.wasm', 'application/wasm'],
      ['/3d-decoders/r1/worker.js', 'text/javascript'],
    ]) {
      const res = await fetch(`${origin}${url}`, { headers: { 'accept-encoding': 'br' } })
      expect(res.headers.get('content-encoding'), url).toBe('br')
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-next-cache-tags')).toBeNull()
      const body = path.join(dist, 'server', 'app', url.slice(1) + '.body')
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(body))).toBe(true)
    }
    for (const url of ['/3d-decoders/r1/sitemap.xml', '/3d-decoders/r1/image.png']) {
      const res = await fetch(`${origin}${url}`, { headers: { 'accept-encoding': 'br' } })
      expect(res.status, url).toBe(299)
    }
  })

  it('answers a matching If-None-Match with 304', async () => {
    const first = await fetch(`${origin}/_next/static/chunks/site.css`, {
      headers: { 'accept-encoding': 'br' },
    })
    const etag = first.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await fetch(`${origin}/_next/static/chunks/site.css`, {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag! },
    })
    expect(again.status).toBe(304)
  })

  it('leaves to Next.js what it has no copy for, clients without Brotli, and other methods', async () => {
    const cases: [string, RequestInit][] = [
      ['/_next/static/chunks/framework.js', { headers: { 'accept-encoding': 'gzip' } }],
      ['/_next/static/chunks/tiny.js', { headers: { 'accept-encoding': 'br' } }],
      ['/_next/static/chunks/missing.js', { headers: { 'accept-encoding': 'br' } }],
      ['/_next/static/chunks/../../routes-manifest.json', { headers: { 'accept-encoding': 'br' } }],
      ['/_next/static/chunks/%E0%A4%A.js', { headers: { 'accept-encoding': 'br' } }],
      [
        '/_next/static/chunks/framework.js',
        { method: 'POST', headers: { 'accept-encoding': 'br' } },
      ],
    ]
    for (const [url, init] of cases) {
      const res = await fetch(`${origin}${url}`, init)
      expect(res.status, url).toBe(299)
      expect(await res.text()).toBe('fell through')
    }
  })
})
