import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'

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
    // The seed reproduces the folder: FOREIGN_SEED=<seed> npx playwright test -c playwright.foreign.config.ts
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
