import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createCdnPurge, purgeByTag } from '../../server/cdn.mjs'
import { createHealth } from '../../server/health.mjs'
import { createSiteListener } from '../../server/site.mjs'

// The serving layer's side of the CDN (server/cdn.mjs), over real sockets: which answers carry
// the content tag, and the purge a successful webhook sends to CDN_PURGE_URL. Varnish itself is
// driven in tests/cdn/.

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function close(server: Server) {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}

/** Next.js as the layer sees it: a prerendered page, a JSON route, and the webhook. */
async function handle(req: IncomingMessage, res: ServerResponse) {
  const path = req.url!.split('?')[0]!
  if (path === '/api/revalidate') {
    const ok = req.headers['x-secret'] === 'right'
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
    res.end(ok ? '{"revalidated":true}' : '{"error":"wrong secret"}')
    return
  }
  if (path.startsWith('/local/') || path.startsWith('/api/')) {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end('{}')
    return
  }
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "script-src 'self'",
    'cache-control': 's-maxage=31536000',
  })
  res.end(`<!DOCTYPE html><html><body><h1>${path}</h1></body></html>`)
}

/** A CDN's purge endpoint that records each request. */
async function fakeCdn(status = 200) {
  const purges: { method: string; key: string | undefined; at: number }[] = []
  const server = createServer((req, res) => {
    purges.push({
      method: req.method!,
      key: req.headers['surrogate-key'] as string | undefined,
      at: Date.now(),
    })
    res.writeHead(status)
    res.end()
  })
  return { purges, server, url: `${await listen(server)}/` }
}

describe('the CDN side of the serving layer', () => {
  it('tags what is built from content, and nothing per request, per node or versioned', async () => {
    const server = createServer(
      createSiteListener({ handle, health: createHealth(), log: { error() {}, warn() {} } }),
    )
    const origin = await listen(server)
    try {
      for (const path of ['/en-us/about', '/en-us/about', '/sitemap.xml']) {
        const response = await fetch(`${origin}${path}`)
        expect(response.headers.get('surrogate-key'), path).toBe('prismic')
        expect(response.headers.get('cache-tag'), path).toBe('prismic')
      }
      for (const path of [
        '/api/preview',
        '/local/emailjs/api/v1.0/email/send',
        '/local/prismic/media/photos/a.jpg?v=abc',
        '/healthz',
        '/readyz',
      ]) {
        const response = await fetch(`${origin}${path}`)
        expect(response.headers.get('surrogate-key'), path).toBeNull()
      }
    } finally {
      await close(server)
    }
  })

  it('purges the tag at the CDN after a successful webhook, at once and again once settled', async () => {
    const cdn = await fakeCdn()
    const settleMs = 300
    // When each purge leaves, as the real sender sends it: the gap between arrivals at the CDN
    // would also count each request's time on the wire, which a loaded machine stretches.
    const sent: number[] = []
    const send = (url: string, tags: string[]) => {
      sent.push(Date.now())
      return purgeByTag(url, tags)
    }
    const server = createServer(
      createSiteListener({
        handle,
        cdn: createCdnPurge({ url: cdn.url, settleMs, send }),
        log: { error() {}, warn() {} },
      }),
    )
    const origin = await listen(server)
    try {
      const refused = await fetch(`${origin}/api/revalidate`, { method: 'POST' })
      expect(refused.status).toBe(401)
      const answered = Date.now()
      const accepted = await fetch(`${origin}/api/revalidate`, {
        method: 'POST',
        headers: { 'x-secret': 'right' },
      })
      expect(accepted.status).toBe(200)
      await vi.waitFor(() => expect(cdn.purges).toHaveLength(2))
      expect(cdn.purges.map((p) => [p.method, p.key])).toEqual([
        ['PURGE', 'prismic'],
        ['PURGE', 'prismic'],
      ])
      expect(sent).toHaveLength(2)
      // A timer never fires early; 1 ms for the clock's rounding.
      expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(settleMs - 1)
      expect(cdn.purges[1]!.at).toBeGreaterThanOrEqual(sent[1]!)
      expect(cdn.purges[0]!.at).toBeGreaterThanOrEqual(answered)
    } finally {
      await close(server)
      await close(cdn.server)
    }
  })

  it('logs a purge the CDN refuses, naming it, and reports it failed', async () => {
    const cdn = await fakeCdn(403)
    const errors: string[] = []
    try {
      const purge = createCdnPurge({
        url: cdn.url,
        settleMs: 10,
        log: { error: (message: string) => errors.push(message) },
      })!
      expect(await purge.purge()).toBe(false)
      expect(errors[0]).toBe(
        `CDN purge of prismic through ${cdn.url} failed: ${cdn.url} answered 403 to PURGE`,
      )
      expect(createCdnPurge({ url: undefined })).toBeUndefined()
    } finally {
      await close(cdn.server)
    }
  })
})
