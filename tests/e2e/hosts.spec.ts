import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { passTimeTrap } from './support/time-trap'

// One build, reached under several host names with no rebuild: the e2e server's SITE_URL is
// http://127.0.0.1:PORT (tests/suites/e2e.playwright.ts); the same server is opened as localhost, and
// through a reverse proxy on another port that passes the public host on. Each way, every
// script, style, image and call the page makes goes to the origin in the address bar (the
// home page's images load), nothing is refused by the page's policy, and the contact form
// delivers.

const OUTBOX = '.data/e2e-outbox'
const contact = JSON.parse(readFileSync('content/documents/page/contact/en-us.json', 'utf8'))
const C = contact.data.slices.find((s: { slice_type: string }) => s.slice_type === 'contact_form')
  .primary as Record<string, string>

/** A reverse proxy in front of `upstream`, as a load balancer or nginx would be. */
async function reverseProxy(upstream: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          host: upstream.host,
          'x-forwarded-host': req.headers.host,
          'x-forwarded-proto': 'http',
          'x-forwarded-for': req.socket.remoteAddress,
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forwarded.on('error', () => res.destroy())
    req.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

function outboxHas(marker: string): boolean {
  if (!existsSync(OUTBOX)) return false
  return readdirSync(OUTBOX).some((name) =>
    readFileSync(path.join(OUTBOX, name), 'utf8').includes(marker),
  )
}

const ways = [
  { name: 'localhost', origin: (base: URL) => `http://localhost:${base.port}` },
  { name: '127.0.0.1', origin: (base: URL) => base.origin },
  { name: 'a reverse proxy', origin: (_base: URL, proxy: string) => proxy },
]

test.describe('any host name', () => {
  let proxy: Server
  let proxyOrigin: string
  test.beforeAll(async ({ baseURL }) => {
    proxy = await reverseProxy(new URL(baseURL!))
    proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  test.afterAll(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  })

  for (const way of ways) {
    test(`reached through ${way.name}, the site loads from its own origin and sends mail`, async ({
      page,
      baseURL,
    }) => {
      const origin = way.origin(new URL(baseURL!), proxyOrigin)
      const elsewhere: string[] = []
      page.on('request', (request) => {
        const kind = request.resourceType()
        if (['script', 'stylesheet', 'image', 'media', 'fetch', 'xhr', 'document'].includes(kind)) {
          if (new URL(request.url()).origin !== origin) elsewhere.push(`${kind} ${request.url()}`)
        }
      })
      const refused: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text())
      })
      // The home page first: its photographs and 3D poster come from the embedded media route.
      await page.goto(`${origin}/en-us`)
      const images = page.locator('main img')
      await expect(images.first()).toBeVisible()
      for (const img of await images.all()) {
        await img.scrollIntoViewIfNeeded()
        await expect
          .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
          .toBe(true)
      }
      await page.clock.install()
      await page.goto(`${origin}/en-us/contact`)
      const form = page.locator('.slice-contact-form form')
      await expect(form.getByRole('button', { name: C.submit_label })).toBeEnabled()
      await passTimeTrap(page)
      const marker = randomUUID()
      await form.getByLabel(C.name_label).fill('Host Test')
      await form.getByLabel(C.email_label).fill('host@example.com')
      await form.getByLabel(C.subject_label).fill(`Reached as ${way.name}`)
      await form.getByLabel(C.message_label).fill(`Sent through ${origin}. ${marker}`)
      await form.getByRole('button', { name: C.submit_label }).click()
      await expect.poll(() => outboxHas(marker), { timeout: 20_000 }).toBe(true)
      expect(elsewhere).toEqual([])
      expect(refused).toEqual([])
    })
  }

  test('canonical URLs and the sitemap name SITE_URL, whatever the host', async ({
    request,
    baseURL,
  }) => {
    const local = `http://localhost:${new URL(baseURL!).port}`
    const html = await (await request.get(`${local}/en-us/about`)).text()
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/en-us/about"/>`)
    expect(html).toMatch(new RegExp(`<meta property="og:url" content="${baseURL}/en-us/about"`))
    const sitemap = await (await request.get(`${local}/sitemaps/sitemap/0.xml`)).text()
    expect(sitemap).toContain(`<loc>${baseURL}/en-us/about</loc>`)
  })
})
