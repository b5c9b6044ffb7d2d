import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { buildOnceTests } from './build-once'

type Doc = { type: string; key: string; lang: string; uid?: string; data: Record<string, unknown> }
type Manifest = { seed: number; masterLang: string; documents: Doc[] }

/**
 * The folder the web server generated. Read inside each test: Playwright lists the tests before
 * it starts the web server, which writes a new folder (and manifest) every run.
 */
function manifest(): Manifest {
  return JSON.parse(readFileSync('.data/foreign/manifest.json', 'utf8'))
}

/** Where the site's route resolver puts each routable type. */
function url(doc: Doc): string | undefined {
  if (doc.type === 'page') return doc.uid === 'home' ? `/${doc.lang}` : `/${doc.lang}/${doc.uid}`
  if (doc.type === 'project') return `/${doc.lang}/work/${doc.uid}`
  if (doc.type === 'post') return `/${doc.lang}/journal/${doc.uid}`
  if (doc.type === 'work_index') return `/${doc.lang}/work`
  if (doc.type === 'journal_index') return `/${doc.lang}/journal`
  return undefined
}

test('a content folder no test has seen renders as a whole site', async ({ page }) => {
  test.setTimeout(180_000)
  const { seed, documents } = manifest()
  test.info().annotations.push({ type: 'seed', description: String(seed) })
  const routable = documents.filter((doc) => url(doc))
  expect(routable.length).toBeGreaterThan(4)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  for (const doc of routable) {
    const path = url(doc)!
    // The seed reproduces the folder: FOREIGN_SEED=<seed> npx playwright test -c tests/suites/foreign.playwright.ts
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(200)
    const title = String(doc.data.title ?? '').trim()
    await expect(page.locator('main'), path).toBeVisible()
    // The generator leaves some fields empty, as editors do; a filled title is the page's h1.
    if (title) await expect(page.locator('h1').first(), path).toHaveText(title)
  }
  expect(errors).toEqual([])
})

test('the foreign site answers / with its own master language', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(new RegExp(`/${manifest().masterLang}$`))
})

// Last in this file: it stops the content API for good.
test('when the CMS goes away, a new query gets the error page inside the header and footer', async ({
  page,
}) => {
  const { documents, masterLang } = manifest()
  const settings = documents.find((doc) => doc.type === 'settings' && doc.lang === masterLang)
  const journal = documents.find((doc) => doc.type === 'journal_index' && doc.lang === masterLang)
  expect(journal, 'the generator makes a journal index in every language').toBeTruthy()

  // Pages and the layout's settings were cached at build; a search nobody has made was not.
  process.kill(Number(readFileSync('.data/foreign/content-api.pid', 'utf8')), 'SIGTERM')
  const query = `nobody-searched-this-${Date.now()}`
  const response = await page.goto(`/${masterLang}/journal?q=${query}`)
  expect(response?.status()).toBe(500)

  const main = page.locator('main.status-page')
  await expect(main).toBeVisible()
  await expect(page.locator('.site-header')).toBeVisible()
  await expect(page.locator('.site-footer')).toBeVisible()
  await expect(main.getByRole('button')).toBeVisible()
  const title = String(settings?.data.error_title ?? '').trim()
  if (title) await expect(main.locator('h1')).toHaveText(title)

  // The pages cached before the outage are still served.
  const home = await page.goto(`/${masterLang}`)
  expect(home?.status()).toBe(200)
  await expect(page.locator('.site-header')).toBeVisible()
})

// Built and started as a publisher does, into another folder (.next-foreign).
buildOnceTests('foreign', '.next-foreign')
