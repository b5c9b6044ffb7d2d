import { describe, expect, it } from 'vitest'
import { loadConfig } from '@/lib/config'
import { contentSecurityPolicy, securityHeaders } from '@/lib/security-headers'

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split('; ').map((d) => {
      const [name, ...values] = d.split(' ')
      return [name, values]
    }),
  )
}

const hostedMail = {
  NEXT_PUBLIC_EMAILJS_PUBLIC_KEY: 'pk',
  NEXT_PUBLIC_EMAILJS_SERVICE_ID: 'svc',
  NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID: 'a',
  NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID: 'b',
}

describe('contentSecurityPolicy', () => {
  it('lets local mode reach only the site itself', () => {
    const csp = directives(
      contentSecurityPolicy(loadConfig({ SITE_URL: 'https://facet.example' }), { dev: false }),
    )
    expect(csp['connect-src']).toEqual(["'self'", 'https://facet.example'])
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://facet.example'])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(csp['object-src']).toEqual(["'none'"])
  })

  it('never allows unsafe-eval in production, only in development', () => {
    expect(
      directives(contentSecurityPolicy(loadConfig({}), { dev: false }))['script-src'],
    ).not.toContain("'unsafe-eval'")
    expect(
      directives(contentSecurityPolicy(loadConfig({}), { dev: true }))['script-src'],
    ).toContain("'unsafe-eval'")
  })

  it('adds EmailJS only with hosted mail, and Prismic only with hosted content', () => {
    const mail = directives(contentSecurityPolicy(loadConfig(hostedMail), { dev: false }))
    expect(mail['connect-src']).toContain('https://api.emailjs.com')
    expect(mail['img-src']).not.toContain('https://images.prismic.io')
    const content = directives(
      contentSecurityPolicy(loadConfig({ PRISMIC_REPOSITORY: 'my-studio' }), { dev: false }),
    )
    expect(content['img-src']).toContain('https://images.prismic.io')
    expect(content['connect-src']).not.toContain('https://api.emailjs.com')
  })

  it('allows a standalone content API named by URL', () => {
    const csp = directives(
      contentSecurityPolicy(loadConfig({ PRISMIC_REPOSITORY: 'http://127.0.0.1:4010/api/v2' }), {
        dev: false,
      }),
    )
    expect(csp['img-src']).toContain('http://127.0.0.1:4010')
  })
})

describe('securityHeaders', () => {
  it('forbids framing everywhere but the slice simulator', () => {
    const config = loadConfig({})
    const page = securityHeaders(config, { dev: false })
    expect(page.find((h) => h.key === 'X-Frame-Options')?.value).toBe('DENY')
    const simulator = securityHeaders(config, { dev: false, sliceSimulator: true })
    expect(simulator.find((h) => h.key === 'X-Frame-Options')).toBeUndefined()
    expect(
      directives(simulator.find((h) => h.key === 'Content-Security-Policy')!.value)[
        'frame-ancestors'
      ],
    ).toContain('https://*.prismic.io')
  })
})
