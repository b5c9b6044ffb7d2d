import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { languages, routes } from './support/content'

const LANGS = languages()

/** Every route of the site, both languages, plus the states of the indexes and the 404. */
const PAGES = [
  ...routes().map((r) => r.url),
  ...LANGS.flatMap((lang) => [
    `/${lang}/work?page=2`,
    `/${lang}/journal?q=zzzz-no-match`,
    `/${lang}/no-such-page`,
  ]),
]

async function violations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

test.describe('axe finds no violation', () => {
  for (const url of PAGES) {
    test(url, async ({ page }) => {
      await page.goto(url)
      expect(await violations(page)).toEqual([])
    })
  }
})

test('axe finds no violation in the dark theme either', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext({ colorScheme: 'dark' })
  const page = await context.newPage()
  const templates = ['', '/about', '/work', '/journal', '/work/lumen-lamp', '/no-such-page']
  for (const path of templates) {
    await page.goto(`/${LANGS[0]}${path}`)
    expect(await violations(page), path || '/').toEqual([])
  }
  await context.close()
})

test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
  await page.goto(`/${LANGS[0]}/about`)
  await page.keyboard.press('Tab')
  const skip = page.locator('.skip-link')
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('main')).toBeFocused()
})

test('the FAQ opens and closes from the keyboard, without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(`/${LANGS[0]}/about`)
  const first = page.locator('.faq-item').first()
  await expect(first).not.toHaveAttribute('open', '')
  await first.locator('summary').focus()
  await page.keyboard.press('Enter')
  await expect(first).toHaveAttribute('open', '')
  await context.close()
})
