import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { createHealth } from '../../server/health.mjs'
import { createAssetCache } from '../../server/asset-cache.mjs'
import { createPageCache } from '../../server/page-cache.mjs'
import { createSiteListener } from '../../server/site.mjs'

// The serving layer in front of Next.js, driven over real sockets with a stand-in for Next's
// request handler that answers the way Next.js does: a prerendered page with a shared-cache
// lifetime, a page rendered per request with `private, no-store`.

const POLICY = "default-src 'self'; script-src 'self' 'unsafe-inline'"

function nextPage(version: string): string {
  return (
    `<!DOCTYPE html><html><head><script src="/_next/static/chunks/main.js" async=""></script>` +
    `</head><body><h1>${version}</h1><p>${'Text. '.repeat(400)}</p>` +
    `<script>self.__next_f.push([1,"${version}"])</script></body></html>`
  )
}

type Fake = {
  calls: string[]
  version: string
  held: Map<string, () => void>
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
}

function fakeNext(): Fake {
  const fake: Fake = {
    calls: [],
    version: 'v1',
    held: new Map(),
    async handle(req, res) {
      const path = req.url!.split('?')[0]!
      fake.calls.push(path)
      if (path.startsWith('/held')) await new Promise<void>((r) => fake.held.set(path, r))
      if (path.startsWith('/asset/')) return answerAsset(path, req, res)
      if (path === '/api/revalidate') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"revalidated":true}')
        return
      }
      const shared = path === '/prerendered' || path.startsWith('/held-prerendered')
      // An index page: rendered per request, marked by the site's proxy as the same for all.
      if (path === '/en-us/journal') res.setHeader('x-facet-same-for-everyone', '1')
      if (req.headers['x-set-cookie']) res.setHeader('set-cookie', 'a=b')
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.setHeader('content-security-policy', POLICY)
      res.setHeader(
        'cache-control',
        shared ? 's-maxage=31536000' : 'private, no-cache, no-store, max-age=0, must-revalidate',
      )
      // Next.js answers a matching If-None-Match itself: a 304 with its configured headers.
      const etag = `"${fake.version}"`
      res.setHeader('etag', etag)
      if (req.headers['if-none-match'] === etag) {
        res.removeHeader('content-type')
        res.statusCode = 304
        res.end()
        return
      }
      res.statusCode = 200
      // Next.js writes a page in several chunks.
      const html = nextPage(fake.version)
      res.write(html.slice(0, 100))
      res.end(html.slice(100))
    },
  }
  return fake
}

/** An asset's bytes: compressible, as a decoder's or a model's are. */
const ASSET = Buffer.from(
  Array.from({ length: 3000 }, (_, i) => `vertex ${i % 97} ${(i * 7) % 13};`).join('\n'),
)

/**
 * Assets as Next.js's route handlers answer them: `Content-Type` set as an array, the body in
 * chunks. `/asset/immutable.wasm` never changes; `/asset/mutable.json` may; `/asset/env.hdr` is a
 * type the MIME database leaves out; `/asset/no-transform.js` forbids any change;
 * `/asset/by-accept.glb` varies by `Accept`.
 */
function answerAsset(path: string, req: IncomingMessage, res: ServerResponse) {
  const types: Record<string, string> = {
    '/asset/immutable.wasm': 'application/wasm',
    '/asset/mutable.json': 'application/json',
    '/asset/env.hdr': 'image/vnd.radiance',
    '/asset/no-transform.js': 'text/javascript',
    '/asset/by-accept.glb': 'model/gltf-binary',
  }
  res.setHeader('content-type', [types[path] ?? 'application/octet-stream'])
  res.setHeader(
    'cache-control',
    path === '/asset/mutable.json'
      ? 'public, max-age=60'
      : path === '/asset/no-transform.js'
        ? 'public, max-age=31536000, immutable, no-transform'
        : 'public, max-age=31536000, immutable',
  )
  let body = ASSET
  if (path === '/asset/by-accept.glb') {
    res.setHeader('vary', 'Accept')
    body = Buffer.concat([Buffer.from(`${req.headers.accept ?? 'none'}\n`), ASSET])
  }
  res.statusCode = 200
  res.write(body.subarray(0, 5000))
  res.end(body.subarray(5000))
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function withLayer(
  options: Partial<Parameters<typeof createSiteListener>[0]>,
  run: (origin: string, fake: Fake) => Promise<void>,
) {
  const fake = fakeNext()
  const server = createServer(
    createSiteListener({ handle: fake.handle, log: { error() {}, warn() {} }, ...options }),
  )
  const origin = await listen(server)
  try {
    await run(origin, fake)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const scriptHashes = (policy: string | null) => policy?.match(/'sha256-[^']+'/g) ?? []

describe('the serving layer', () => {
  it('serves a prerendered page from memory after Next.js renders it once', async () => {
    await withLayer({ pageCache: createPageCache({ recheckMs: 60_000 }) }, async (origin, fake) => {
      const first = await fetch(`${origin}/prerendered`)
      const second = await fetch(`${origin}/prerendered`)
      expect(fake.calls).toEqual(['/prerendered'])
      const [a, b] = [await first.text(), await second.text()]
      expect(b).toBe(a)
      // Rewritten: the chunk script leaves the head for the after-paint loader…
      expect(a).not.toContain('<script src="/_next/static/chunks/main.js"')
      expect(a).toContain('"/_next/static/chunks/main.js"')
      // …and the policy allows exactly the page's inline scripts.
      const policy = second.headers.get('content-security-policy')
      expect(policy).not.toContain("'unsafe-inline'")
      expect(scriptHashes(policy)).toHaveLength(2)
    })
  })

  it('sends a kept page in Brotli or gzip, the same page once decoded', async () => {
    await withLayer({ pageCache: createPageCache({ recheckMs: 60_000 }) }, async (origin) => {
      const plain = await (await fetch(`${origin}/prerendered`)).text()
      for (const [coding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const response = await rawGet(`${origin}/prerendered`, { 'accept-encoding': coding })
        expect(response.headers['content-encoding']).toBe(coding)
        expect(response.headers['vary']).toMatch(/Accept-Encoding/i)
        expect(decode(response.body).toString('utf8')).toBe(plain)
      }
    })
  })

  it('asks Next.js again after the recheck interval and serves its new version', async () => {
    let clock = 0
    const pageCache = createPageCache({ recheckMs: 1_000, now: () => clock })
    await withLayer({ pageCache }, async (origin, fake) => {
      expect(await (await fetch(`${origin}/prerendered`)).text()).toContain('<h1>v1</h1>')
      fake.version = 'v2'
      clock = 999
      expect(await (await fetch(`${origin}/prerendered`)).text()).toContain('<h1>v1</h1>')
      clock = 1_000
      expect(await (await fetch(`${origin}/prerendered`)).text()).toContain('<h1>v2</h1>')
      expect(fake.calls).toEqual(['/prerendered', '/prerendered'])
    })
  })

  it('keeps a per-request page the site marks as the same for everyone, for the recheck interval only', async () => {
    let clock = 0
    const pageCache = createPageCache({ recheckMs: 1_000, now: () => clock })
    await withLayer({ pageCache }, async (origin, fake) => {
      const first = await fetch(`${origin}/en-us/journal?q=lamp`)
      expect(first.headers.get('x-facet-same-for-everyone')).toBeNull()
      expect(first.headers.get('cache-control')).toContain('no-store')
      expect(await first.text()).toContain('<h1>v1</h1>')
      fake.version = 'v2'
      clock = 999
      expect(await (await fetch(`${origin}/en-us/journal?q=lamp`)).text()).toContain('<h1>v1</h1>')
      // Another query string is another page.
      expect(await (await fetch(`${origin}/en-us/journal?q=desk`)).text()).toContain('<h1>v2</h1>')
      clock = 1_000
      expect(await (await fetch(`${origin}/en-us/journal?q=lamp`)).text()).toContain('<h1>v2</h1>')
      expect(fake.calls).toEqual(['/en-us/journal', '/en-us/journal', '/en-us/journal'])
    })
  })

  it('never keeps an unmarked per-request page, nor a marked one that sets a cookie', async () => {
    await withLayer({ pageCache: createPageCache({ recheckMs: 60_000 }) }, async (origin, fake) => {
      await (await fetch(`${origin}/dynamic`)).text()
      await (await fetch(`${origin}/dynamic`)).text()
      const cookie = { 'x-set-cookie': '1' }
      await (await fetch(`${origin}/en-us/journal`, { headers: cookie })).text()
      await (await fetch(`${origin}/en-us/journal`, { headers: cookie })).text()
      expect(fake.calls).toEqual(['/dynamic', '/dynamic', '/en-us/journal', '/en-us/journal'])
    })
  })

  it('never sends a 304 with a policy other than the page it revalidates', async () => {
    // Through Next.js (recheck due) and from memory (kept page): the browser merges a 304's
    // headers into the page it kept, so a 304 must not bring the base policy back.
    for (const recheckMs of [0, 60_000])
      await withLayer({ pageCache: createPageCache({ recheckMs }) }, async (origin) => {
        const first = await fetch(`${origin}/prerendered`)
        await first.text()
        const etag = first.headers.get('etag')!
        const page = first.headers.get('content-security-policy')
        const again = await fetch(`${origin}/prerendered`, { headers: { 'if-none-match': etag } })
        expect(again.status, `recheck ${recheckMs}`).toBe(304)
        const policy = again.headers.get('content-security-policy')
        expect(policy === null || policy === page, `recheck ${recheckMs}: ${policy}`).toBe(true)
      })
  })

  it('empties the kept pages when the revalidate webhook succeeds', async () => {
    await withLayer({ pageCache: createPageCache({ recheckMs: 60_000 }) }, async (origin, fake) => {
      await (await fetch(`${origin}/prerendered`)).text()
      fake.version = 'v2'
      const webhook = await fetch(`${origin}/api/revalidate`, { method: 'POST', body: '{}' })
      expect(webhook.status).toBe(200)
      expect(await (await fetch(`${origin}/prerendered`)).text()).toContain('<h1>v2</h1>')
    })
  })

  it('rewrites a page rendered per request every time and keeps nothing', async () => {
    await withLayer({}, async (origin, fake) => {
      for (const version of ['v1', 'v2']) {
        fake.version = version
        const response = await fetch(`${origin}/dynamic`)
        expect(await response.text()).toContain(`<h1>${version}</h1>`)
        expect(scriptHashes(response.headers.get('content-security-policy'))).toHaveLength(2)
      }
      expect(fake.calls).toEqual(['/dynamic', '/dynamic'])
    })
  })

  it('never shares a page with a preview session or a router request', async () => {
    await withLayer({ pageCache: createPageCache({ recheckMs: 60_000 }) }, async (origin, fake) => {
      await (await fetch(`${origin}/prerendered`)).text()
      await (
        await fetch(`${origin}/prerendered`, { headers: { cookie: 'io.prismic.preview=x' } })
      ).text()
      await (await fetch(`${origin}/prerendered`, { headers: { rsc: '1' } })).text()
      expect(fake.calls).toEqual(['/prerendered', '/prerendered', '/prerendered'])
    })
  })

  it('queues on-demand renders only: a prerendered page passes a full queue', async () => {
    await withLayer(
      { maxConcurrent: 1, prerendered: new Set(['/held-prerendered']) },
      async (origin, fake) => {
        const first = fetch(`${origin}/held-1`)
        const second = fetch(`${origin}/held-2`)
        await until(() => fake.held.has('/held-1'))
        // The queue is full: the second on-demand render waits its turn…
        const prerendered = fetch(`${origin}/held-prerendered`)
        await until(() => fake.held.has('/held-prerendered'))
        expect(fake.calls).toEqual(['/held-1', '/held-prerendered'])
        // …while the prerendered page is answered.
        fake.held.get('/held-prerendered')!()
        expect((await prerendered).status).toBe(200)
        fake.held.get('/held-1')!()
        expect((await first).status).toBe(200)
        await until(() => fake.held.has('/held-2'))
        fake.held.get('/held-2')!()
        expect((await second).status).toBe(200)
      },
    )
  })

  it('answers the probes before anything else, and readiness follows its checks', async () => {
    const health = createHealth()
    let redisUp = true
    health.addCheck('shared cache', async () => {
      if (!redisUp) throw new Error('connection refused')
    })
    await withLayer({ health, maxConcurrent: 1 }, async (origin, fake) => {
      // Even with every turn of the queue taken.
      const busy = fetch(`${origin}/held-busy`)
      await until(() => fake.held.has('/held-busy'))
      const live = await fetch(`${origin}/healthz`)
      expect(live.status).toBe(200)
      expect(live.headers.get('cache-control')).toBe('no-store')
      expect(await live.json()).toEqual({ status: 'alive' })
      const ready = await fetch(`${origin}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready', checks: { 'shared cache': 'ok' } })
      redisUp = false
      const down = await fetch(`${origin}/readyz`)
      expect(down.status).toBe(503)
      expect(await down.json()).toEqual({
        status: 'unavailable',
        checks: { 'shared cache': 'connection refused' },
      })
      redisUp = true
      health.drain()
      const draining = await fetch(`${origin}/readyz`)
      expect(draining.status).toBe(503)
      expect(await draining.json()).toMatchObject({ status: 'draining' })
      expect((await fetch(`${origin}/healthz`)).status).toBe(200)
      fake.held.get('/held-busy')!()
      await busy
    })
  })
})

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** A GET that keeps the body as bytes (fetch would decode it). */
async function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

describe('compression of what is not a page', () => {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const

  it('compresses a route answer whose type Next.js set as an array, and decodes to the same bytes', async () => {
    await withLayer({ assetCache: createAssetCache() }, async (origin) => {
      for (const path of ['/asset/mutable.json', '/asset/env.hdr', '/asset/immutable.wasm']) {
        for (const coding of ['br', 'gzip'] as const) {
          const response = await rawGet(`${origin}${path}`, { 'accept-encoding': coding })
          expect(response.headers['content-encoding'], `${path} ${coding}`).toBe(coding)
          expect(response.body.length).toBeLessThan(ASSET.length / 4)
          expect(decode[coding](response.body).equals(ASSET)).toBe(true)
        }
      }
      const plain = await rawGet(`${origin}/asset/immutable.wasm`, {
        'accept-encoding': 'identity',
      })
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body.equals(ASSET)).toBe(true)
      const refused = await rawGet(`${origin}/asset/no-transform.js`, { 'accept-encoding': 'br' })
      expect(refused.headers['content-encoding']).toBeUndefined()
    })
  })

  it('keeps an immutable asset at Brotli 11 and serves it without asking Next.js again', async () => {
    const assetCache = createAssetCache()
    await withLayer({ assetCache }, async (origin, fake) => {
      const first = await rawGet(`${origin}/asset/immutable.wasm`, { 'accept-encoding': 'br' })
      await expect.poll(() => assetCache.size).toBe(1)
      const calls = fake.calls.length
      const kept = await rawGet(`${origin}/asset/immutable.wasm`, { 'accept-encoding': 'br' })
      const keptGzip = await rawGet(`${origin}/asset/immutable.wasm`, {
        'accept-encoding': 'gzip',
      })
      expect(fake.calls.length).toBe(calls)
      expect(kept.headers['content-encoding']).toBe('br')
      expect(kept.headers['content-type']).toBe('application/wasm')
      expect(kept.headers['cache-control']).toMatch(/immutable/)
      expect(kept.headers['vary']).toMatch(/Accept-Encoding/)
      expect(Number(kept.headers['content-length'])).toBe(kept.body.length)
      expect(brotliDecompressSync(kept.body).equals(ASSET)).toBe(true)
      expect(gunzipSync(keptGzip.body).equals(ASSET)).toBe(true)
      // The best quality, not the one made while streaming.
      expect(kept.body.length).toBeLessThan(first.body.length)
      // A client that takes no coding is answered by Next.js, as before.
      await rawGet(`${origin}/asset/immutable.wasm`, {})
      expect(fake.calls.length).toBe(calls + 1)
      // What may change is never kept.
      await rawGet(`${origin}/asset/mutable.json`, { 'accept-encoding': 'br' })
      await rawGet(`${origin}/asset/mutable.json`, { 'accept-encoding': 'br' })
      expect(fake.calls.filter((c) => c === '/asset/mutable.json')).toHaveLength(2)
    })
  })

  it('keeps one copy per value of the headers an asset varies by', async () => {
    const assetCache = createAssetCache()
    await withLayer({ assetCache }, async (origin) => {
      for (const accept of ['model/a', 'model/b']) {
        await rawGet(`${origin}/asset/by-accept.glb`, { 'accept-encoding': 'br', accept })
      }
      await expect.poll(() => assetCache.size).toBe(2)
      for (const accept of ['model/b', 'model/a']) {
        const kept = await rawGet(`${origin}/asset/by-accept.glb`, {
          'accept-encoding': 'br',
          accept,
        })
        expect(brotliDecompressSync(kept.body).toString().split('\n')[0]).toBe(accept)
        expect(kept.headers['vary']).toMatch(/^Accept, Accept-Encoding$/)
      }
    })
  })

  it('keeps at most maxBytes, dropping the least recently used', async () => {
    const assetCache = createAssetCache({ maxBytes: 1 })
    await withLayer({ assetCache }, async (origin) => {
      await rawGet(`${origin}/asset/immutable.wasm`, { 'accept-encoding': 'br' })
      await expect.poll(() => assetCache.size).toBe(1)
      await rawGet(`${origin}/asset/env.hdr`, { 'accept-encoding': 'br' })
      await expect.poll(() => assetCache.bytes).toBeLessThan(ASSET.length)
      expect(assetCache.size).toBe(1)
    })
  })
})

describe('createPageCache', () => {
  it('reuses the prepared page while the HTML from Next.js is unchanged', () => {
    let clock = 0
    const cache = createPageCache({ recheckMs: 10, now: () => clock })
    const answer = (version: string) => ({
      status: 200,
      headers: { 'content-security-policy': POLICY, 'cache-control': 's-maxage=1' },
      body: Buffer.from(nextPage(version)),
    })
    const first = cache.keep('/a', answer('v1'))
    clock = 20
    expect(cache.fresh('/a')).toBeUndefined()
    expect(cache.keep('/a', answer('v1'))).toBe(first)
    expect(cache.fresh('/a')).toBe(first)
    expect(cache.keep('/a', answer('v2'))).not.toBe(first)
  })

  it('keeps at most maxPages, dropping the least recently used', () => {
    const cache = createPageCache({ maxPages: 2, recheckMs: 60_000 })
    const answer = {
      status: 200,
      headers: { 'content-security-policy': POLICY },
      body: Buffer.from(nextPage('v')),
    }
    cache.keep('/a', answer)
    cache.keep('/b', answer)
    cache.fresh('/a')
    cache.keep('/c', answer)
    expect([cache.has('/a'), cache.has('/b'), cache.has('/c')]).toEqual([true, false, true])
  })
})
