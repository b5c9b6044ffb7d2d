import { readFileSync } from 'node:fs'
import { expect, test } from './support/visitor'

function homeDocument(lang: string): { data: { title: string } } {
  return JSON.parse(readFileSync(`content/documents/page/home/${lang}.json`, 'utf8'))
}

for (const lang of ['en-us', 'fr-fr']) {
  test(`the ${lang} home page shows its document's title as the h1`, async ({ visitor: page }) => {
    const response = await page.goto(`/${lang}`)
    expect(response?.status()).toBe(200)
    await expect(page.locator('h1')).toHaveText(homeDocument(lang).data.title)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
  })
}

test('/ redirects to the visitor’s language', async ({ browser }) => {
  const french = await browser.newContext({ locale: 'fr-FR' })
  const page = await french.newPage()
  await page.goto('/')
  await expect(page).toHaveURL(/\/fr-fr$/)
  await french.close()

  const other = await browser.newContext({ locale: 'de-DE' })
  const page2 = await other.newPage()
  await page2.goto('/')
  await expect(page2).toHaveURL(/\/en-us$/)
  await other.close()
})

test('the embedded content API answers at /local/prismic/api/v2', async ({ request }) => {
  const repository = await (await request.get('/local/prismic/api/v2')).json()
  expect(repository.refs[0]).toMatchObject({ id: 'master', isMasterRef: true })
  expect(repository.languages.map((l: { id: string }) => l.id)).toEqual(['en-us', 'fr-fr'])
})
