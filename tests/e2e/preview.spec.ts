import * as prismic from '@prismicio/client'
import { expect, test, type Page } from '@playwright/test'
import { documentFile, languages, releaseDocumentFile, urlOf } from './support/content'

/**
 * Previewing a release offline, as an editor does on Prismic: opening the release's preview
 * token (the embedded API issues one per `content/releases/<id>/`) goes through the site's
 * `/api/preview`, lands on the document's page with the draft shown through Prismic's preview
 * cookie, and `/api/exit-preview` ends it. The titles come from the content files.
 */

const RELEASE = 'winter-launch'

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first()

for (const lang of languages()) {
  test(`a draft title shows in a preview session and not outside it (${lang})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const published = documentFile('page', 'about', lang)
    const draft = releaseDocumentFile(RELEASE, 'page', 'about', lang)
    expect(draft.data.title).not.toBe(published.data.title)
    const url = urlOf(published)!

    await page.goto(url)
    await expect(heading(page)).toHaveText(published.data.title!)

    // The document's id, as a client reads it from the embedded API.
    const client = prismic.createClient<prismic.PrismicDocument>(`${baseURL}/local/prismic/api/v2`)
    const { id } = await client.getByUID('page', published.uid!, { lang })
    const refs = await client.getRefs()
    expect(refs.find((r) => r.id === RELEASE)).toMatchObject({ isMasterRef: false })

    await page.goto(
      `/local/prismic/previews/${RELEASE}?websitePreviewId=${RELEASE}&documentId=${id}`,
    )
    await expect(page).toHaveURL(`${baseURL}${url}`)
    await expect(heading(page)).toHaveText(draft.data.title!)
    const cookies = await page.context().cookies()
    const previewCookie = cookies.find((c) => c.name === prismic.cookie.preview)
    expect(decodeURIComponent(previewCookie?.value ?? '')).toBe(
      `${baseURL}/local/prismic/previews/${RELEASE}?websitePreviewId=${RELEASE}`,
    )

    // Another visitor, with no preview session, sees the published title.
    const visitor = await browser.newContext()
    try {
      const other = await visitor.newPage()
      await other.goto(url)
      await expect(heading(other)).toHaveText(published.data.title!)
    } finally {
      await visitor.close()
    }

    const exit = await page.goto('/api/exit-preview')
    expect(exit?.status()).toBe(200)
    await page.goto(url)
    await expect(heading(page)).toHaveText(published.data.title!)
    const after = await page.context().cookies()
    expect(after.find((c) => c.name === prismic.cookie.preview)).toBeUndefined()
  })
}

test('a preview token of no release starts no session', async ({ page, baseURL }) => {
  const published = documentFile('page', 'about', languages()[0]!)
  const token = `${baseURL}/local/prismic/previews/no-such-release?websitePreviewId=x`
  const response = await page.request.get(
    `/api/preview?token=${encodeURIComponent(token)}&documentId=x`,
    { maxRedirects: 0 },
  )
  expect(response.status()).toBe(307)
  expect(response.headers()['location']).toBe('/')
  expect(response.headers()['set-cookie'] ?? '').not.toContain(prismic.cookie.preview)
  await page.goto(urlOf(published)!)
  await expect(heading(page)).toHaveText(published.data.title!)
})
