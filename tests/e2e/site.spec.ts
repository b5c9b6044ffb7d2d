import { type APIRequestContext } from '@playwright/test'
import { expect, test } from './support/visitor'
import { axeViolations } from './support/axe'
import {
  allDocuments,
  dateOf,
  documentFile,
  languages,
  richText,
  routes,
  urlOf,
} from './support/content'

const ROUTES = routes()
const LANGS = languages()

test.describe('every route renders its document from content/, and axe finds no violation', () => {
  for (const route of ROUTES) {
    test(`${route.url} (${route.type} ${route.key})`, async ({ visitor: page, baseURL }) => {
      const response = await page.goto(route.url)
      expect(response?.status()).toBe(200)
      await expect(page.locator('html')).toHaveAttribute('lang', route.lang)
      await expect(page.locator('h1')).toHaveCount(1)
      await expect(page.locator('h1')).toHaveText(route.data.title!)

      // Canonical from SITE_URL, and an hreflang alternate for each language version on file.
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `${baseURL}${route.url}`,
      )
      const versions = ROUTES.filter((r) => r.type === route.type && r.key === route.key)
      for (const version of versions)
        await expect(
          page.locator(`link[rel="alternate"][hreflang="${version.lang}"]`),
        ).toHaveAttribute('href', `${baseURL}${version.url}`)

      const description = route.data.meta_description
      if (description)
        await expect(page.locator('meta[name="description"]')).toHaveAttribute(
          'content',
          description,
        )
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/)
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https?:/)
      // No paint before the whole page is parsed, so nothing painted early moves (Chromium paints
      // a document still being parsed on a slow CPU): the head holds rendering for the footer.
      await expect(page.locator('head link[rel="expect"][blocking="render"]')).toHaveAttribute(
        'href',
        '#site-footer',
      )
      await expect(page.locator('footer#site-footer')).toHaveCount(1)
      // Every page's footer links to the accessibility statement in its language (the settings'
      // footer links).
      const statement = documentFile('page', 'accessibility', route.lang)
      const footerLink = documentFile('settings', 'settings', route.lang).data.footer_links as {
        label: string
      }[]
      await expect(
        page.locator('footer#site-footer').getByRole('link', { name: footerLink[0]!.label }),
      ).toHaveAttribute('href', urlOf(statement)!)

      const main = page.locator('main')
      // Each slice of the document is on the page, in order, with its variation.
      const slices = route.data.slices ?? []
      const rendered = await main
        .locator('[data-slice-type]')
        .evaluateAll((els) =>
          els.map(
            (el) =>
              `${el.getAttribute('data-slice-type')}/${el.getAttribute('data-slice-variation')}`,
          ),
        )
      expect(rendered).toEqual(slices.map((s) => `${s.slice_type}/${s.variation}`))
      for (const slice of slices) {
        const heading = slice.primary.heading
        if (typeof heading === 'string' && heading && slice.slice_type !== 'hero')
          await expect(main.getByRole('heading', { name: heading, exact: true })).toBeVisible()
      }

      if (route.type === 'project')
        await expect(main.getByText(String(route.data.summary), { exact: true })).toBeVisible()
      if (route.type === 'post') {
        const body = richText(route.data.body).split('\n').filter(Boolean)
        for (const line of body)
          await expect(main.getByText(line, { exact: true }).first()).toBeVisible()
        await expect(main.getByText(String(route.data.author))).toBeVisible()
      }

      // WCAG 2.2 A and AA, on the page as loaded (a11y.spec.ts covers the other states).
      expect(await axeViolations(page)).toEqual([])
    })
  }
})

test.describe('the work index', () => {
  for (const lang of LANGS) {
    const projects = allDocuments()
      .filter((d) => d.type === 'project' && d.lang === lang)
      .sort((a, b) => dateOf(b).localeCompare(dateOf(a)))

    test(`${lang}: lists every project newest first over its pages`, async ({ visitor: page }) => {
      const seen: string[] = []
      let url: string | null = `/${lang}/work`
      while (url) {
        await page.goto(url)
        seen.push(...(await page.locator('main .card h2').allTextContents()))
        const next = page.locator('.pagination a[rel="next"]')
        url = (await next.count()) ? await next.getAttribute('href') : null
      }
      expect(seen).toEqual(projects.map((p) => p.data.title))
    })

    test(`${lang}: filters by tag`, async ({ visitor: page }) => {
      const tag = projects[0]!.tags[0]!
      await page.goto(`/${lang}/work`)
      await page.locator('.tag-filter').getByRole('link', { name: tag, exact: true }).click()
      await expect(page).toHaveURL(new RegExp(`[?&]tag=${encodeURIComponent(tag)}`))
      const expected = projects.filter((p) => p.tags.includes(tag)).map((p) => p.data.title)
      const shown: string[] = []
      let more = true
      while (more) {
        shown.push(...(await page.locator('main .card h2').allTextContents()))
        const next = page.locator('.pagination a[rel="next"]')
        more = (await next.count()) > 0
        if (more) await next.click()
      }
      expect(shown).toEqual(expected)
    })
  }
})

test.describe('the journal index', () => {
  for (const lang of LANGS) {
    const posts = allDocuments()
      .filter((d) => d.type === 'post' && d.lang === lang)
      .sort((a, b) => dateOf(b).localeCompare(dateOf(a)))

    test(`${lang}: lists every post newest first over its pages`, async ({ visitor: page }) => {
      const seen: string[] = []
      let url: string | null = `/${lang}/journal`
      while (url) {
        await page.goto(url)
        seen.push(...(await page.locator('main .card h2').allTextContents()))
        const next = page.locator('.pagination a[rel="next"]')
        url = (await next.count()) ? await next.getAttribute('href') : null
      }
      expect(seen).toEqual(posts.map((p) => p.data.title))
    })

    test(`${lang}: searches the full text with ?q=`, async ({ visitor: page }) => {
      // A word from one post's body that no other post of this language uses.
      const target = posts[3]!
      const words = String(target.data.title)
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 5)
      const term = words.find(
        (w) => posts.filter((p) => JSON.stringify(p.data).toLowerCase().includes(w)).length === 1,
      )!
      expect(term).toBeTruthy()
      const index = documentFile('journal_index', 'journal_index', lang)
      await page.goto(`/${lang}/journal`)
      await page.getByLabel(String(index.data.search_label)).fill(term)
      await page.getByRole('button', { name: String(index.data.search_button_label) }).click()
      await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(term)}`))
      await expect(page.locator('main .card h3')).toHaveText([String(target.data.title)])
    })
  }
})

test('a crawl from each home finds no internal link that fails', async ({ request }) => {
  test.setTimeout(120_000)
  const queue = LANGS.map((lang) => `/${lang}`)
  const seen = new Set(queue)
  const broken: string[] = []
  while (queue.length > 0) {
    const url = queue.shift()!
    const response = await request.get(url, { maxRedirects: 0 })
    if (response.status() >= 400) {
      broken.push(`${url} → ${response.status()}`)
      continue
    }
    if (!(response.headers()['content-type'] ?? '').includes('text/html')) continue
    const html = await response.text()
    for (const match of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
      const target = new URL(match[1]!.replaceAll('&amp;', '&'), response.url())
      if (target.origin !== new URL(response.url()).origin) continue
      const path = `${target.pathname}${target.search}`
      if (path.startsWith('/_next/')) continue
      if (!seen.has(path)) {
        seen.add(path)
        queue.push(path)
      }
    }
  }
  expect(broken).toEqual([])
  // The crawl reached every routable document.
  for (const route of ROUTES) expect(seen, route.url).toContain(route.url)
})

test('the language switcher goes to the same document in the other language and back', async ({
  visitor: page,
}) => {
  const [first, second] = LANGS as [string, string]
  for (const [type, key] of [
    ['page', 'about'],
    ['project', 'lumen-lamp'],
    ['post', 'post-01'],
    ['work_index', 'work_index'],
  ] as const) {
    const a = urlOf(documentFile(type, key, first))!
    const b = urlOf(documentFile(type, key, second))!
    await page.goto(a)
    await page.locator(`.lang-switcher a[hreflang="${second}"]`).click()
    await expect(page).toHaveURL(new RegExp(`${b}$`))
    await expect(page.locator('html')).toHaveAttribute('lang', second)
    await page.locator(`.lang-switcher a[hreflang="${first}"]`).click()
    await expect(page).toHaveURL(new RegExp(`${a}$`))
    await expect(page.locator('html')).toHaveAttribute('lang', first)
  }
})

test('an unknown path is a 404 in its language, with the header and footer', async ({
  visitor: page,
}) => {
  for (const lang of LANGS) {
    const settings = documentFile('settings', 'settings', lang)
    const response = await page.goto(`/${lang}/no-such-page/at-all`)
    expect(response?.status()).toBe(404)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    await expect(page.locator('h1')).toHaveText(String(settings.data.not_found_title))
    await expect(page.locator('.site-header')).toBeVisible()
    await expect(page.locator('.site-footer')).toBeVisible()
    // With no document on screen, the switcher goes to each language's home.
    for (const other of LANGS)
      await expect(page.locator(`.lang-switcher a[hreflang="${other}"]`)).toHaveAttribute(
        'href',
        `/${other}`,
      )
  }
})

test('without JavaScript, an unknown path or uid gets the whole 404 in its language', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  try {
    for (const lang of LANGS) {
      const settings = documentFile('settings', 'settings', lang)
      for (const path of [`/${lang}/no-such-page/at-all`, `/${lang}/work/no-such-project`]) {
        const response = await page.goto(path)
        expect(response?.status(), path).toBe(404)
        await expect(page.locator('html')).toHaveAttribute('lang', lang)
        await expect(page.locator('h1')).toHaveText(String(settings.data.not_found_title))
        await expect(page.locator('main .lead')).not.toBeEmpty()
        await expect(page.locator('.site-header')).toBeVisible()
        await expect(page.locator('.site-footer')).toBeVisible()
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
        expect((await request.get(path)).headers()['x-robots-tag']).toBe('noindex')
      }
    }
    // A path under no language: the master language's 404.
    const master = LANGS[0]!
    const response = await page.goto('/no-such-language/page')
    expect(response?.status()).toBe(404)
    await expect(page.locator('html')).toHaveAttribute('lang', master)
    await expect(page.locator('h1')).toHaveText(
      String(documentFile('settings', 'settings', master).data.not_found_title),
    )
  } finally {
    await context.close()
  }
})

test('structured data describes the studio, posts and projects', async ({ visitor: page }) => {
  const jsonLd = async () =>
    (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (text) => JSON.parse(text) as Record<string, unknown>,
    )
  const lang = LANGS[0]!
  const settings = documentFile('settings', 'settings', lang)
  await page.goto(`/${lang}`)
  expect(await jsonLd()).toContainEqual(
    expect.objectContaining({ '@type': 'Organization', name: settings.data.site_name }),
  )
  const post = documentFile('post', 'post-01', lang)
  await page.goto(urlOf(post)!)
  expect(await jsonLd()).toContainEqual(
    expect.objectContaining({
      '@type': 'Article',
      headline: post.data.title,
      author: { '@type': 'Person', name: post.data.author },
    }),
  )
  const project = documentFile('project', 'lumen-lamp', lang)
  await page.goto(urlOf(project)!)
  expect(await jsonLd()).toContainEqual(
    expect.objectContaining({ '@type': 'CreativeWork', name: project.data.title }),
  )
})

async function sitemapUrls(request: APIRequestContext): Promise<string[]> {
  const index = await request.get('/sitemap.xml')
  expect(index.status()).toBe(200)
  const files = [...(await index.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
  expect(files.length).toBeGreaterThan(0)
  const urls: string[] = []
  for (const file of files) {
    const response = await request.get(new URL(file).pathname)
    expect(response.status()).toBe(200)
    urls.push(...[...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!))
  }
  return urls
}

test('sitemap.xml indexes every routable document, and robots.txt points to it', async ({
  request,
  baseURL,
}) => {
  const urls = await sitemapUrls(request)
  expect(urls.sort()).toEqual(ROUTES.map((r) => `${baseURL}${r.url}`).sort())
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
  expect(robots).toMatch(/Disallow: \/api\//)
})

// Serial, and the only tests that post to the webhook: a purge running beside a refusal would
// empty the cache the refusal checks.
test.describe('the revalidate webhook', () => {
  test.describe.configure({ mode: 'serial' })
  const secret = process.env.E2E_WEBHOOK_SECRET ?? 'facet-e2e-webhook-secret'
  const cacheState = async (request: APIRequestContext) => {
    const response = await request.get(
      ROUTES.find((r) => r.type === 'page' && r.uid !== 'home')!.url,
    )
    return response.headers()['x-nextjs-cache']
  }

  test('refuses a wrong, missing or oversized secret and purges nothing', async ({ request }) => {
    await cacheState(request)
    expect(await cacheState(request)).toBe('HIT')

    const wrong = await request.post('/api/revalidate', {
      data: { type: 'api-update', secret: 'wrong' },
    })
    expect(wrong.status()).toBe(401)
    const missing = await request.post('/api/revalidate', { data: { type: 'api-update' } })
    expect(missing.status()).toBe(401)
    const huge = await request.post('/api/revalidate', {
      data: { secret, padding: 'x'.repeat(100_000) },
    })
    expect(huge.status()).toBe(413)
    const notJson = await request.post('/api/revalidate', {
      data: 'not json',
      headers: { 'content-type': 'text/plain' },
    })
    expect(notJson.status()).toBe(400)

    // Still served from the cache: nothing was purged.
    expect(await cacheState(request)).toBe('HIT')
  })

  test('refuses a cross-site request even with the right secret, and purges nothing', async ({
    request,
  }) => {
    await cacheState(request)
    expect(await cacheState(request)).toBe('HIT')
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ]
    for (const headers of refused) {
      const response = await request.post('/api/revalidate', {
        data: { type: 'api-update', secret },
        headers,
      })
      expect(response.status(), JSON.stringify(headers)).toBe(403)
    }
    expect(await cacheState(request)).toBe('HIT')
  })

  test('with the right secret, purges the cached pages', async ({ request }) => {
    await cacheState(request)
    expect(await cacheState(request)).toBe('HIT')
    const ok = await request.post('/api/revalidate', { data: { type: 'api-update', secret } })
    expect(ok.status()).toBe(200)
    expect(await ok.json()).toMatchObject({ revalidated: true })
    expect(await cacheState(request)).not.toBe('HIT')
  })
})

test('previews redirect only within the site', async ({ request }) => {
  const exit = await request.get('/api/exit-preview?redirect=https://evil.example/', {
    maxRedirects: 0,
  })
  expect(exit.status()).toBe(200)
  const exitHome = await request.get(`/api/exit-preview?redirect=/${LANGS[0]}`, { maxRedirects: 0 })
  expect(exitHome.status()).toBe(307)
  expect(exitHome.headers()['location']).toBe(`/${LANGS[0]}`)
  const preview = await request.get('/api/preview?token=https://evil.example/x&documentId=nope', {
    maxRedirects: 0,
  })
  expect(preview.status()).toBe(307)
  expect(preview.headers()['location']).toBe('/')
})
