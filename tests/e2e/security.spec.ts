import { expect, test } from '@playwright/test'

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
  for (const path of ['/en-us', '/fr-fr']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    expect(
      await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      path,
    ).toEqual([])
  }
})
