import { expect, test, type Page } from '@playwright/test'
import { loadContent } from '../../services/content-api/store'

/**
 * The site built against a repository `prismic:push` filled from content/ shows what the site
 * built from content/ shows: on every page, the main content as a visitor reads it (its text,
 * and the alternative text of its images) is the same. Ids differ, and are not visible.
 */

const mainOrigin = `http://127.0.0.1:${Number(process.env.PUSHED_PORT || 3237) + 2}`

/** Every route of the sample content (the route resolver of src/prismicio.ts). */
function routes(): string[] {
  const out = new Set<string>()
  for (const { doc } of loadContent('content').documents) {
    const { type, uid, lang } = doc
    if (type === 'page') out.add(uid === 'home' ? `/${lang}` : `/${lang}/${uid}`)
    if (type === 'project') out.add(`/${lang}/work/${uid}`)
    if (type === 'post') out.add(`/${lang}/journal/${uid}`)
    if (type === 'work_index') out.add(`/${lang}/work`)
    if (type === 'journal_index') out.add(`/${lang}/journal`)
  }
  return [...out].sort()
}

async function seen(page: Page, url: string) {
  const response = await page.goto(url)
  const main = page.locator('main')
  return {
    status: response?.status(),
    text: (await main.innerText()).replace(/\s+/g, ' ').trim(),
    alts: await main
      .locator('img')
      .evaluateAll((images) => images.map((i) => i.getAttribute('alt'))),
  }
}

test('every page of the pushed repository shows what the site built from content/ shows', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const all = routes()
  expect(all.length).toBeGreaterThan(40)
  for (const route of all) {
    const pushed = await seen(page, route)
    const original = await seen(page, `${mainOrigin}${route}`)
    expect(original.status, route).toBe(200)
    expect(pushed, route).toEqual(original)
  }
})
