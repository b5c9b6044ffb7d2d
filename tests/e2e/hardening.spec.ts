import { expect, test, type APIResponse } from '@playwright/test'
import { compressToEncodedURIComponent } from 'lz-string'
import { languages } from './support/content'
import { HOSTILE_URLS, hostilize } from '../fixtures/hostile/corpus'
import { apiSliceMocks } from '../../scripts/slices/api-mocks'

/**
 * Hostile content and abusive requests against the production build.
 *
 * Hostile content goes in through the slice simulator, which renders whatever slices its URL
 * carries through the same `<Slices>` as every page: each slice's mocks with the XSS corpus in
 * every text, link, image and embed field (tests/fixtures/hostile/corpus.ts). That exercises the
 * real server rendering without adding a hostile document to the sample content (or a second
 * build over a copy of it). Documents fetched through the client get the same treatment one step
 * earlier, in `resilientFetch`, which tests/unit/hardening-content.test.tsx covers.
 */

const LANGS = languages()

const sliceMocks = apiSliceMocks

test('hostile slices in every field run no script', async ({ page, baseURL }) => {
  const dialogs: string[] = []
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message())
    await dialog.dismiss()
  })
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  const mocks = sliceMocks()
  for (const [index, slice] of mocks.entries()) {
    const hostile = hostilize([slice], index)
    const url = `${baseURL}/slice-simulator?state=${compressToEncodedURIComponent(JSON.stringify(hostile))}`
    // Opened as Slice Machine opens it, in a frame (directly, it shows only a notice), from an
    // ancestor its frame-ancestors allows: this site.
    await page.goto('/robots.txt')
    await page.setContent(
      `<iframe title="simulator" src="${url}" style="width:1200px;height:900px"></iframe>`,
    )
    // The slice rendered (the corpus shows as text), and nothing it carried ran or survived.
    await expect(
      page.frameLocator('iframe').locator(`[data-slice-type="${slice.slice_type}"]`),
    ).toHaveCount(1)
    const frame = page.frames().find((f) => f.url().includes('/slice-simulator'))!
    await frame.waitForLoadState('networkidle')
    const found = await frame.evaluate(() => {
      const bad: string[] = []
      for (const el of document.querySelectorAll('main *')) {
        for (const attr of el.getAttributeNames())
          if (attr.startsWith('on') || attr === 'srcdoc') bad.push(`${el.tagName} ${attr}`)
        if (/^(IFRAME|OBJECT|EMBED|SCRIPT)$/.test(el.tagName)) bad.push(el.tagName)
      }
      for (const a of document.querySelectorAll<HTMLAnchorElement>('main a[href]'))
        if (!['http:', 'https:', 'mailto:', 'tel:'].includes(a.protocol)) bad.push(a.href)
      for (const img of document.querySelectorAll<HTMLImageElement>('main img[src]'))
        if (!['http:', 'https:'].includes(new URL(img.src).protocol)) bad.push(img.src)
      return {
        bad,
        xss: (window as unknown as { __xss?: unknown }).__xss,
        violations: (window as unknown as { __violations: string[] }).__violations,
      }
    })
    expect(found, slice.slice_type).toEqual({ bad: [], xss: undefined, violations: [] })
  }
  // Hovering every link and element of the last slice runs nothing either.
  const frame = page.frames().find((f) => f.url().includes('/slice-simulator'))!
  await frame.evaluate(() => {
    for (const el of document.querySelectorAll('main *'))
      el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }))
  })
  expect(await frame.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBe(
    undefined,
  )
  expect(dialogs).toEqual([])
  expect(HOSTILE_URLS.length).toBeGreaterThan(10)
})

/**
 * Abuse of the site's endpoints: each refused, with nothing changed. The revalidate webhook's
 * refusals are in site.spec.ts, beside its purge, in one serial group: a purge running beside them
 * would empty the cache they check.
 */

function cookieNames(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => h.value.split('=')[0])
}

test.describe.configure({ mode: 'serial' })

test('a preview without a valid token sets no draft cookie and never leaves the site', async ({
  request,
}) => {
  for (const query of [
    'token=https://evil.example/previews/x&documentId=nope',
    'token=anything',
    'documentId=x',
    'token=https://evil.example/x&documentId=x&redirect=https://evil.example/',
    '',
  ]) {
    const response = await request.get(`/api/preview?${query}`, { maxRedirects: 0 })
    expect(response.status(), query).toBe(307)
    expect(response.headers()['location'], query).toBe('/')
    expect(cookieNames(response), query).toEqual([])
  }
})

test('ending a preview refuses cross-site requests', async ({ request }) => {
  const response = await request.get(`/api/exit-preview?redirect=/${LANGS[0]}`, {
    headers: { 'sec-fetch-site': 'cross-site' },
    maxRedirects: 0,
  })
  expect(response.status()).toBe(403)
  expect(cookieNames(response)).toEqual([])
})

test('the embedded mail API refuses another origin', async ({ request }) => {
  const response = await request.post('/local/emailjs/api/v1.0/email/send', {
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { service_id: 'x', template_id: 'y', user_id: 'z', template_params: {} },
  })
  expect(response.status()).toBe(403)
})
