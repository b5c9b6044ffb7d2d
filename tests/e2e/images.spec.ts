import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'
import { routes } from './support/content'

// Images in local mode: every CMS image has a srcset whose candidates the embedded image service
// answers at the width they name, and media in pages never name an origin, so the site works
// under another host name than SITE_URL.

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
const project = routes().find((r) => r.type === 'project' && r.lang === 'en-us')!
const PAGES = ['/en-us', project.url, '/fr-fr']

type Sources = { src: string; srcset: string | null; sizes: string | null }

async function imageSources(page: Page): Promise<Sources[]> {
  return page.locator('img').evaluateAll((images) =>
    images.map((img) => ({
      src: img.getAttribute('src') ?? '',
      srcset: img.getAttribute('srcset'),
      sizes: img.getAttribute('sizes'),
    })),
  )
}

function candidates(srcset: string): { url: string; width: number }[] {
  return srcset.split(', ').map((candidate) => {
    const [url, descriptor] = candidate.split(' ')
    return { url: url!, width: Number(descriptor!.replace(/w$/, '')) }
  })
}

test.describe('responsive images from the embedded image service', () => {
  for (const path of PAGES) {
    test(`${path}: each srcset candidate answers an image of its width`, async ({
      page,
      request,
    }) => {
      await page.goto(path)
      const images = (await imageSources(page)).filter((i) => i.srcset)
      expect(images.length).toBeGreaterThan(0)
      for (const image of images) {
        expect(image.sizes, image.src).toBeTruthy()
        const list = candidates(image.srcset!)
        expect(list.length).toBeGreaterThan(1)
        for (const { url, width } of list) {
          const response = await request.get(url, { headers: { accept: CHROME_ACCEPT } })
          expect(response.status(), url).toBe(200)
          expect(response.headers()['content-type'], url).toBe('image/avif')
          expect((await sharp(await response.body()).metadata()).width, url).toBe(width)
        }
      }
    })
  }

  test('a raster image without srcset is a bug; an SVG needs none', async ({ page }) => {
    for (const path of PAGES) {
      await page.goto(path)
      for (const image of await imageSources(page)) {
        if (image.src.startsWith('/local/prismic/media/') && !/\.svg(\?|$)/.test(image.src))
          expect(image.srcset, `${path}: ${image.src}`).toBeTruthy()
      }
    }
  })
})

test.describe('media in pages name no origin (local mode)', () => {
  test('images, preloads, media links and 3D models are site-relative; Open Graph stays absolute', async ({
    page,
    baseURL,
  }) => {
    for (const path of [...PAGES, '/en-us/showcase']) {
      const response = await page.goto(path)
      if (response?.status() !== 200) continue
      const urls = await page.evaluate(() => [
        ...[...document.querySelectorAll('img')].flatMap((img) => [
          img.getAttribute('src') ?? '',
          ...(img.getAttribute('srcset') ?? '').split(', ').map((c) => c.split(' ')[0]!),
        ]),
        ...[...document.querySelectorAll('link[rel="preload"][as="image"]')].flatMap((l) => [
          l.getAttribute('href') ?? '',
          ...(l.getAttribute('imagesrcset') ?? '').split(', ').map((c) => c.split(' ')[0]!),
        ]),
        ...[...document.querySelectorAll('a[href*="/local/prismic/media/"]')].map(
          (a) => a.getAttribute('href') ?? '',
        ),
      ])
      for (const url of urls.filter(Boolean)) expect(url, `${path}: ${url}`).toMatch(/^\/[^/]/)
      // The 3D slots get their model URLs in the page's data: none of them names an origin.
      const html = await response.text()
      const models = [
        ...html.matchAll(/([a-z]+:\/\/[^"\\\s]*)?\/local\/prismic\/media\/[^"\\\s]+\.glb/g),
      ]
      for (const [match, origin] of models) expect(origin, match).toBeUndefined()
      const og = await page.locator('meta[property="og:image"]').first().getAttribute('content')
      if (og) expect(og.startsWith(`${baseURL}/`)).toBe(true)
    }
  })

  test('opened under another host name, every image loads from that host', async ({
    browser,
    baseURL,
  }) => {
    // SITE_URL is 127.0.0.1; the visitor types localhost.
    const other = baseURL!.replace('127.0.0.1', 'localhost')
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
    const page = await context.newPage()
    const origins = new Set<string>()
    page.on('request', (r) => {
      if (r.resourceType() === 'image') origins.add(new URL(r.url()).origin)
    })
    try {
      await page.goto(`${other}/en-us`, { waitUntil: 'load' })
      const hero = page.locator('img').first()
      await expect
        .poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0)
      expect([...origins]).toEqual([new URL(other).origin])
    } finally {
      await context.close()
    }
  })
})
