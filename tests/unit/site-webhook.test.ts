import { describe, expect, it } from 'vitest'
import { readBody, secretMatches, verifyWebhook, WebhookError } from '@/lib/content/webhook'
import { sameSitePath } from '@/lib/content/same-site'

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://site.test/api/revalidate', { method: 'POST', body, headers })

describe('secretMatches', () => {
  it('accepts only the exact secret', () => {
    expect(secretMatches('s3cret', 's3cret')).toBe(true)
    expect(secretMatches('s3cret ', 's3cret')).toBe(false)
    expect(secretMatches('S3cret', 's3cret')).toBe(false)
    expect(secretMatches('', 's3cret')).toBe(false)
  })

  it('refuses secrets of another length or type without throwing', () => {
    expect(secretMatches('a much longer secret than expected', 's3cret')).toBe(false)
    expect(secretMatches(42, 's3cret')).toBe(false)
    expect(secretMatches(undefined, 's3cret')).toBe(false)
  })

  it('refuses everything when no secret is configured', () => {
    expect(secretMatches('', undefined)).toBe(false)
    expect(secretMatches('anything', undefined)).toBe(false)
  })
})

describe('verifyWebhook', () => {
  it('returns the body when its secret matches', async () => {
    await expect(
      verifyWebhook(post(JSON.stringify({ type: 'api-update', secret: 'ok' })), 'ok'),
    ).resolves.toMatchObject({ type: 'api-update' })
  })

  it('answers 401 for a wrong or missing secret, 400 for a body that is not JSON', async () => {
    const status = (promise: Promise<unknown>) =>
      promise.then(
        () => 200,
        (error: unknown) => (error instanceof WebhookError ? error.status : 500),
      )
    expect(await status(verifyWebhook(post('{"secret":"no"}'), 'ok'))).toBe(401)
    expect(await status(verifyWebhook(post('{}'), 'ok'))).toBe(401)
    expect(await status(verifyWebhook(post('{"secret":"ok"}'), undefined))).toBe(401)
    expect(await status(verifyWebhook(post('nope'), 'ok'))).toBe(400)
  })
})

describe('readBody', () => {
  it('refuses a body past the limit, whatever Content-Length says', async () => {
    await expect(readBody(post('x'.repeat(2000)), 1000)).rejects.toMatchObject({ status: 413 })
    await expect(
      readBody(post('x'.repeat(10), { 'content-length': '5000' }), 1000),
    ).rejects.toMatchObject({ status: 413 })
    await expect(readBody(post('small'), 1000)).resolves.toBe('small')
  })
})

describe('sameSitePath', () => {
  const site = 'https://facet.example'
  it('keeps paths and same-origin URLs', () => {
    expect(sameSitePath('/en-us/about', site)).toBe('/en-us/about')
    expect(sameSitePath('/en-us/journal?q=cork#top', site)).toBe('/en-us/journal?q=cork#top')
    expect(sameSitePath('https://facet.example/fr-fr', site)).toBe('/fr-fr')
  })

  it('keeps URLs on any origin that counts as this site, and only those', () => {
    const origins = [site, 'http://127.0.0.1:3000']
    expect(sameSitePath('http://127.0.0.1:3000/en-us', origins)).toBe('/en-us')
    expect(sameSitePath('https://facet.example/fr-fr', origins)).toBe('/fr-fr')
    expect(sameSitePath('/fr-fr', origins)).toBe('/fr-fr')
    expect(sameSitePath('http://127.0.0.1:4000/en-us', origins)).toBeUndefined()
  })

  it('refuses every way out of the site', () => {
    for (const url of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'http://facet.example/',
      '',
      null,
    ])
      expect(sameSitePath(url, site), String(url)).toBeUndefined()
  })
})
