import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import PostalMime from 'postal-mime'
import { axeViolations } from '../e2e/support/axe'
import { urlOf } from '../e2e/support/content'
import { RTL_LANG, RTL_LANGUAGE_NAME, type RtlDocument } from '../fixtures/rtl-content'
import { buildOnceTests } from '../foreign/build-once'

/**
 * A third language, right to left, added as content only (tests/fixtures/rtl-content.ts copies
 * the sample content and adds `ar-ae`): the site built against it serves every route of the
 * language in Arabic, right to left, accessible, listed in hreflang and the sitemap, offered by
 * the switcher, with the layout mirrored. The folder's manifest is written by the web server
 * (tests/foreign/serve.ts with FOREIGN_CONTENT=rtl), so it is read inside each test.
 */

type Manifest = { dir: string; masterLang: string; documents: RtlDocument[] }
const manifest = (): Manifest => JSON.parse(readFileSync('.data/rtl/manifest.json', 'utf8'))
const OUTBOX = '.data/rtl-outbox'
/** Optional: where the screenshots and the newsletter's reference are kept for a report. */
const REPORT_DIR = process.env.REPORT_DIR

/** Every route of the added language, from the documents the fixture wrote. */
function routes(): string[] {
  return manifest()
    .documents.map((doc) => urlOf(doc))
    .filter((url): url is string => !!url)
    .sort()
}

/** A document of the added language as the fixture wrote it. */
function arabic(type: string, key: string): { data: Record<string, unknown> } {
  const file = path.join(manifest().dir, 'documents', type, key, `${RTL_LANG}.json`)
  return JSON.parse(readFileSync(file, 'utf8'))
}

const ARABIC = /[\u0600-\u06ff]/

test('every route of the added language answers in Arabic, right to left, with no axe violation', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const all = routes()
  expect(all.length).toBeGreaterThan(20)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  for (const route of [...all, `/${RTL_LANG}/no-such-page`]) {
    const response = await page.goto(route)
    expect(response?.status(), route).toBe(route.endsWith('no-such-page') ? 404 : 200)
    await expect(page.locator('html'), route).toHaveAttribute('lang', RTL_LANG)
    await expect(page.locator('html'), route).toHaveAttribute('dir', 'rtl')
    await expect(page.locator('h1').first(), route).toHaveText(ARABIC)
    expect(await axeViolations(page), route).toEqual([])
  }
  expect(errors).toEqual([])
})

test('the switcher offers the language, and the direction switches with it', async ({ page }) => {
  const { masterLang } = manifest()
  await page.goto(`/${masterLang}`)
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
  const offered = page.locator(`.lang-switcher a[hreflang="${RTL_LANG}"]`)
  await expect(offered).toHaveText(RTL_LANGUAGE_NAME)
  await offered.click()
  await expect(page).toHaveURL(new RegExp(`/${RTL_LANG}$`))
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await page.locator(`.lang-switcher a[hreflang="${masterLang}"]`).click()
  await expect(page).toHaveURL(new RegExp(`/${masterLang}$`))
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
})

test('a visitor whose browser asks for Arabic is sent to it', async ({ request }) => {
  const response = await request.get('/', {
    headers: { 'Accept-Language': 'ar, en;q=0.5' },
    maxRedirects: 0,
  })
  expect(response.status()).toBeGreaterThanOrEqual(300)
  expect(response.status()).toBeLessThan(400)
  expect(new URL(response.headers().location!, 'http://x').pathname).toBe(`/${RTL_LANG}`)
})

async function sitemapUrls(request: APIRequestContext): Promise<string[]> {
  const index = await (await request.get('/sitemap.xml')).text()
  const urls: string[] = []
  for (const [, file] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const text = await (await request.get(new URL(file!).pathname)).text()
    urls.push(...[...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!))
  }
  return urls
}

test('hreflang and the sitemap list every page of the language', async ({
  page,
  request,
  baseURL,
}) => {
  const listed = await sitemapUrls(request)
  for (const route of routes()) expect(listed, route).toContain(`${baseURL}${route}`)
  const { masterLang } = manifest()
  for (const route of [`/${masterLang}`, `/${masterLang}/work`, `/${RTL_LANG}`]) {
    await page.goto(route)
    await expect(page.locator(`link[rel="alternate"][hreflang="${RTL_LANG}"]`)).toHaveAttribute(
      'href',
      `${baseURL}${route.replace(/^\/[^/]+/, `/${RTL_LANG}`)}`,
    )
  }
})

/** The header's pieces, as laid out on screen. */
async function header(page: Page) {
  const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!
  const items = page.locator('.main-nav li')
  return {
    width: page.viewportSize()!.width,
    brand: await box('.site-header .brand'),
    switcher: await box('.site-header .lang-switcher'),
    first: (await items.first().boundingBox())!,
    last: (await items.last().boundingBox())!,
  }
}

for (const [device, viewport] of [
  ['a phone', { width: 412, height: 915 }],
  ['a desktop', { width: 1280, height: 800 }],
] as const) {
  test(`on ${device}, the page is mirrored: the navigation starts at the right`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport)
    const { masterLang } = manifest()
    const shots: Record<string, Buffer> = {}
    for (const lang of [masterLang, RTL_LANG]) {
      await page.goto(`/${lang}`)
      await page.evaluate(() => document.fonts.ready)
      const shot = await page.screenshot()
      shots[lang] = shot
      await testInfo.attach(`home-${lang}-${viewport.width}.png`, {
        body: shot,
        contentType: 'image/png',
      })
      if (REPORT_DIR) {
        mkdirSync(REPORT_DIR, { recursive: true })
        writeFileSync(path.join(REPORT_DIR, `home-${lang}-${viewport.width}.png`), shot)
      }
    }

    // Left to right: the name at the left edge, the menu reading rightwards.
    await page.goto(`/${masterLang}`)
    const ltr = await header(page)
    expect(ltr.brand.x).toBeLessThan(ltr.width * 0.25)
    expect(ltr.first.x).toBeLessThan(ltr.last.x)

    // Right to left: the name at the right edge, the menu reading leftwards from there, the
    // switcher on the far (left) side, and the text set from the right.
    await page.goto(`/${RTL_LANG}`)
    const rtl = await header(page)
    expect(rtl.brand.x + rtl.brand.width).toBeGreaterThan(rtl.width * 0.75)
    expect(rtl.first.x).toBeGreaterThan(rtl.last.x)
    expect(rtl.switcher.x).toBeLessThan(rtl.brand.x)
    const paragraph = page.locator('main p').first()
    expect(
      await paragraph.evaluate((p) => [
        getComputedStyle(p).direction,
        getComputedStyle(p).textAlign,
      ]),
    ).toEqual(['rtl', 'start'])
    // The two screenshots differ (the layout moved), not only the words.
    expect(shots[RTL_LANG]!.equals(shots[masterLang]!)).toBe(false)
  })
}

test('the newsletter in Arabic: its reference reads left to right and is the delivered message', async ({
  page,
}) => {
  const contact = arabic('page', 'contact').data.slices as {
    slice_type: string
    primary: Record<string, string>
  }[]
  const N = contact.find((s) => s.slice_type === 'newsletter')!.primary
  const address = `reader-${Date.now()}@example.com`
  await page.goto(`/${RTL_LANG}/contact`)
  const form = page.locator('.slice-newsletter form')
  await expect(form.getByRole('button', { name: N.submit_label })).toBeEnabled()
  // The time trap refuses a submit within 1.5 s of the form appearing; a person takes longer.
  await page.waitForTimeout(1_600)
  const field = form.getByLabel(N.email_label)
  expect(await field.evaluate((input) => getComputedStyle(input).direction)).toBe('ltr')
  await field.fill(address)
  await form.getByRole('button', { name: N.submit_label }).click()
  await expect(form.getByRole('status')).toContainText(N.success_message)
  const reference = form.getByRole('status').locator('[data-message-id]')
  expect(
    await reference.evaluate((code) => [
      getComputedStyle(code).direction,
      getComputedStyle(code).unicodeBidi,
    ]),
  ).toEqual(['ltr', 'isolate'])
  const shown = (await reference.textContent())!

  let file: string | undefined
  await expect
    .poll(() => {
      file = readdirSync(OUTBOX).find(
        (name) => name.endsWith('.eml') && readFileSync(path.join(OUTBOX, name)).includes(address),
      )
      return file
    })
    .toBeTruthy()
  const email = await PostalMime.parse(readFileSync(path.join(OUTBOX, file!)))
  const header = email.headers.find((h) => h.key === 'x-facet-message-id')?.value
  expect({ file, header }).toEqual({ file: `${shown}.eml`, header: shown })
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true })
    writeFileSync(
      path.join(REPORT_DIR, 'newsletter-reference.txt'),
      `shown reference: ${shown}\noutbox file:     ${OUTBOX}/${file}\nX-Facet-Message-Id: ${header}\n`,
    )
  }
})

// Built and started as a publisher does, into the default folder (.next) of its copy.
buildOnceTests('rtl', '.next')
