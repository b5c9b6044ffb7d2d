import { describe, expect, it } from 'vitest'
import { isCrossSite, isPreviewToken } from '@/lib/content/request-origin'

const SITE = 'https://facet.example'
const post = (headers: Record<string, string>) =>
  new Request(`${SITE}/api/revalidate`, { method: 'POST', headers, body: '{}' })

describe('isCrossSite', () => {
  it('refuses a browser request from another site', () => {
    expect(isCrossSite(post({ origin: 'https://evil.example' }), SITE)).toBe(true)
    expect(isCrossSite(post({ origin: 'null' }), SITE)).toBe(true)
    expect(isCrossSite(post({ origin: 'http://facet.example' }), SITE)).toBe(true)
    expect(isCrossSite(post({ origin: 'https://facet.example.evil.example' }), SITE)).toBe(true)
    expect(isCrossSite(post({ 'sec-fetch-site': 'cross-site' }), SITE)).toBe(true)
    expect(isCrossSite(post({ 'sec-fetch-site': 'same-site' }), SITE)).toBe(true)
    expect(isCrossSite(post({ origin: 'not a url' }), SITE)).toBe(true)
  })

  it('lets same-origin and server-to-server requests through', () => {
    expect(isCrossSite(post({ origin: SITE }), SITE)).toBe(false)
    expect(isCrossSite(post({ 'sec-fetch-site': 'same-origin', origin: SITE }), SITE)).toBe(false)
    expect(isCrossSite(post({}), SITE)).toBe(false)
    // The request's own origin (a site reached by another name, e.g. 127.0.0.1) counts as same.
    const local = new Request('http://127.0.0.1:3000/api/revalidate', {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:3000' },
    })
    expect(isCrossSite(local, SITE)).toBe(false)
  })

  it('counts the host the request was addressed to as this site: a LAN address, a proxy', () => {
    // Next.js builds request.url from its own host name, not the visitor's.
    const viaLan = new Request('http://localhost:3000/api/revalidate', {
      method: 'POST',
      headers: { host: '192.168.1.20:3000', origin: 'http://192.168.1.20:3000' },
    })
    expect(isCrossSite(viaLan, SITE)).toBe(false)
    const viaProxy = new Request('http://localhost:3000/api/revalidate', {
      method: 'POST',
      headers: {
        'x-forwarded-host': 'www.studio.example',
        'x-forwarded-proto': 'https',
        origin: 'https://www.studio.example',
      },
    })
    expect(isCrossSite(viaProxy, SITE)).toBe(false)
    const elsewhere = new Request('http://localhost:3000/api/revalidate', {
      method: 'POST',
      headers: { host: '192.168.1.20:3000', origin: 'http://192.168.1.21:3000' },
    })
    expect(isCrossSite(elsewhere, SITE)).toBe(true)
  })
})

describe('isPreviewToken', () => {
  const endpoint = 'https://my-studio.cdn.prismic.io/api/v2'
  it("accepts only a previews URL on the repository's host", () => {
    expect(
      isPreviewToken('https://my-studio.prismic.io/previews/abc?websitePreviewId=x', endpoint),
    ).toBe(true)
    expect(isPreviewToken('https://evil.example/previews/abc', endpoint)).toBe(false)
    expect(isPreviewToken('https://other.prismic.io/previews/abc', endpoint)).toBe(false)
    expect(isPreviewToken('https://my-studio.prismic.io/api/v2', endpoint)).toBe(false)
    expect(isPreviewToken('javascript:alert(1)', endpoint)).toBe(false)
    expect(isPreviewToken('token', endpoint)).toBe(false)
    expect(isPreviewToken('', endpoint)).toBe(false)
    expect(isPreviewToken(null, endpoint)).toBe(false)
  })

  it('accepts the embedded API’s tokens only beside its own mount, on its own host', () => {
    const embedded = 'http://localhost:3000/local/prismic/api/v2'
    expect(
      isPreviewToken(
        'http://localhost:3000/local/prismic/previews/winter?websitePreviewId=winter',
        embedded,
      ),
    ).toBe(true)
    expect(isPreviewToken('http://localhost:3000/previews/winter', embedded)).toBe(false)
    expect(isPreviewToken('http://evil.example/local/prismic/previews/winter', embedded)).toBe(
      false,
    )
  })
})
