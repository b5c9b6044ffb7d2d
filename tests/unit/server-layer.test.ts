import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { createHealth } from '../../server/health.mjs'
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
