import { expect, test } from '@playwright/test'

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
