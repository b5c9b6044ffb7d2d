import { createHash } from 'node:crypto'
import { expect, test } from '@playwright/test'

/** One route of each kind, in both languages where they differ, and a 404. */
const ROUTES = [
  '/en-us',
  '/fr-fr',
  '/en-us/about',
  '/en-us/contact',
  '/en-us/showcase',
  '/en-us/work',
  '/en-us/work/lumen-lamp',
  '/en-us/journal',
  '/en-us/journal?q=cardboard',
  '/en-us/journal/why-we-still-start-with-cardboard',
  '/fr-fr/journal/pourquoi-nous-commencons-encore-par-le-carton',
  '/en-us/no-such-page',
]

function scriptSources(policy: string): string[] {
  const directive = policy.split(';').find((d) => d.trim().startsWith('script-src '))
  return directive ? directive.trim().split(/\s+/).slice(1) : []
}

test('pages allow exactly their own inline scripts, by hash, and no other inline script', async ({
  request,
}) => {
  for (const path of ['/en-us', '/en-us/journal?q=cardboard', '/en-us/no-such-page']) {
    const response = await request.get(path)
    const sources = scriptSources(response.headers()['content-security-policy'])
    expect(sources, path).not.toContain("'unsafe-inline'")
    const html = await response.text()
    const inline = [
      ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*ld\+json)[^>]*>([\s\S]*?)<\/script>/g),
    ]
    expect(inline.length, path).toBeGreaterThan(0)
    for (const [, body] of inline) {
      const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`
      expect(sources, `${path}: ${body.slice(0, 60)}`).toContain(hash)
    }
  }
})

test('a script injected into the page does not run', async ({ page }) => {
  await page.goto('/en-us/journal/why-we-still-start-with-cardboard')
  const result = await page.evaluate(async () => {
    const violations: string[] = []
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.violatedDirective),
    )
    const host = document.createElement('div')
    host.innerHTML = '<img src="data:," onerror="window.__ran = (window.__ran || 0) + 1">'
    document.body.append(host)
    const script = document.createElement('script')
    script.textContent = 'window.__ran = (window.__ran || 0) + 1'
    document.body.append(script)
    await new Promise((resolve) => setTimeout(resolve, 200))
    return { ran: (window as unknown as { __ran?: number }).__ran ?? 0, violations }
  })
  expect(result.ran).toBe(0)
  expect(result.violations.length).toBeGreaterThanOrEqual(2)
  expect(result.violations.every((directive) => directive.startsWith('script-src'))).toBe(true)
})

test('every response carries the security headers', async ({ request }) => {
  for (const path of ['/en-us', '/fr-fr', '/local/prismic/api/v2']) {
    const response = await request.get(path)
    const headers = response.headers()
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy'], path).not.toContain("'unsafe-eval'")
    expect(headers['x-content-type-options'], path).toBe('nosniff')
    expect(headers['strict-transport-security'], path).toContain('max-age=')
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
    expect(headers['permissions-policy'], path).toContain('camera=()')
  }
})

test('no page breaks the Content Security Policy', async ({ page }) => {
  await page.addInitScript(() => {
    ;(window as unknown as { __violations: string[] }).__violations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      ;(window as unknown as { __violations: string[] }).__violations.push(
        `${event.violatedDirective} ${event.blockedURI}`,
      )
    })
  })
  for (const path of ROUTES) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    expect(
      await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      path,
    ).toEqual([])
  }
})

test('the forms break no policy and throw nothing while a visitor types in them', async ({
  page,
}) => {
  // The forms load their schemas on the visitor's first interaction, after the page is idle:
  // what happens then is checked here, not by the page loads above.
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.addInitScript(() => {
    ;(window as unknown as { __violations: string[] }).__violations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      ;(window as unknown as { __violations: string[] }).__violations.push(
        `${event.violatedDirective} ${event.blockedURI}`,
      )
    })
  })
  await page.goto('/en-us/contact')
  const form = page.locator('.slice-contact-form form')
  await expect(form.locator('button[type="submit"]')).toBeEnabled()
  await form.locator('[name="name"]').fill('Ada')
  await form.locator('[name="email"]').fill('not an address')
  // Blur: the field is validated against its schema, which is loaded by now.
  await form.locator('[name="subject"]').focus()
  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(1)
  await page.locator('.slice-newsletter form [name="email"]').fill('reader@example.com')
  expect(
    await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  ).toEqual([])
  expect(errors).toEqual([])
})
