import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type Page } from '@playwright/test'
import { expect, test } from './support/visitor'
import { compressToEncodedURIComponent } from 'lz-string'
import { apiSliceMocksOf, slicesWithMocks } from '../../scripts/slices/api-mocks'

const SLICES = path.join(process.cwd(), 'src', 'slices')

/** The slice simulator's URL for some slices, as Slice Machine sends them. */
function simulatorUrl(slices: unknown[]): string {
  return `/slice-simulator?state=${compressToEncodedURIComponent(JSON.stringify(slices))}`
}

/**
 * Opens the simulator as Slice Machine does, in a frame: opened directly, it shows only a notice
 * that it must be framed. The framing document is on the site's own origin, which the
 * simulator's `frame-ancestors` allows (as it allows Slice Machine's and Prismic's).
 */
async function simulate(page: Page, baseURL: string | undefined, slices: unknown[]) {
  await page.goto('/robots.txt')
  await page.setContent(
    `<iframe title="simulator" src="${baseURL}${simulatorUrl(slices)}" style="width:1200px;height:900px"></iframe>`,
  )
  return page.frameLocator('iframe')
}

const withMocks = slicesWithMocks()

test.describe('the slice simulator renders every variation in mocks.json', () => {
  for (const name of withMocks) {
    test(name, async ({ visitor: page, baseURL }) => {
      const mocks = apiSliceMocksOf(name)
      const model = JSON.parse(readFileSync(path.join(SLICES, name, 'model.json'), 'utf8'))
      // The mocks cover every variation of the model.
      expect(mocks.map((m) => m.variation).sort()).toEqual(
        model.variations.map((v: { id: string }) => v.id).sort(),
      )
      const frame = await simulate(page, baseURL, mocks)
      for (const mock of mocks) {
        await expect(
          frame.locator(
            `[data-slice-type="${mock.slice_type}"][data-slice-variation="${mock.variation}"]`,
          ),
        ).toBeVisible()
      }
    })
  }
})

test('an unknown slice renders nothing in production', async ({ visitor: page, baseURL }) => {
  const known = apiSliceMocksOf('RichText')[0]
  const frame = await simulate(page, baseURL, [
    { ...known, id: 'unknown$1', slice_type: 'not_a_slice' },
    known,
  ])
  await expect(frame.locator('[data-slice-type="rich_text"]')).toBeVisible()
  await expect(frame.locator('main')).not.toContainText('not_a_slice')
  await expect(frame.locator('main > *')).toHaveCount(1)
})
