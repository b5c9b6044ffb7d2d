import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '@/lib/config'

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('defaults to the embedded content and mail APIs with no variables set', () => {
    const config = loadConfig({})
    expect(config.content).toEqual({ mode: 'local', contentDir: 'content', accessToken: undefined })
    expect(config.mail.mode).toBe('local')
    expect(config.siteUrl).toBe('http://localhost:3000')
    expect(config.mail.outboxDir).toBe('.data/outbox')
  })

  it('does not derive SITE_URL from PORT: one build serves on any port', () => {
    expect(loadConfig({ PORT: '4700' }).siteUrl).toBe('http://localhost:3000')
    expect(loadConfig({ PORT: '4700', SITE_URL: 'https://studio.example/' }).siteUrl).toBe(
      'https://studio.example',
    )
  })

  it('takes a repository name or a Content API URL for PRISMIC_REPOSITORY', () => {
    expect(loadConfig({ PRISMIC_REPOSITORY: 'my-studio' }).content).toMatchObject({
      mode: 'hosted',
      repository: 'my-studio',
    })
    expect(
      loadConfig({ PRISMIC_REPOSITORY: 'http://127.0.0.1:4010/api/v2' }).content,
    ).toMatchObject({
      mode: 'hosted',
      repository: 'http://127.0.0.1:4010/api/v2',
    })
  })

  it('names PRISMIC_REPOSITORY and what it expects when it is malformed', () => {
    for (const bad of ['my studio', 'https://example.com/not-the-api', 'ftp://x/api/v2']) {
      const [problem, ...rest] = problems({ PRISMIC_REPOSITORY: bad })
      expect(rest).toEqual([])
      expect(problem).toContain('PRISMIC_REPOSITORY')
      expect(problem).toContain('ending in /api/v2')
      expect(problem).toContain(bad)
    }
  })

  it('takes a redis:// or rediss:// URL for REDIS_URL, and none by default', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined()
    expect(loadConfig({ REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl).toBe(
      'redis://10.0.0.5:6379/2',
    )
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache.example:6380' }).redisUrl).toBe(
      'rediss://user:pw@cache.example:6380',
    )
    expect(problems({ REDIS_URL: 'http://cache:6379' })).toEqual([
      'REDIS_URL: expected a redis:// or rediss:// URL such as redis://10.0.0.5:6379',
    ])
  })

  it('names every missing EmailJS variable when only some are set', () => {
    const found = problems({
      NEXT_PUBLIC_EMAILJS_PUBLIC_KEY: 'pk',
      NEXT_PUBLIC_EMAILJS_SERVICE_ID: 'svc',
    })
    expect(found).toHaveLength(2)
    expect(found[0]).toMatch(/^NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID: missing/)
    expect(found[1]).toMatch(/^NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID: missing/)
  })

  it('switches mail to hosted EmailJS when every EmailJS variable is set', () => {
    const config = loadConfig({
      NEXT_PUBLIC_EMAILJS_PUBLIC_KEY: 'pk',
      NEXT_PUBLIC_EMAILJS_SERVICE_ID: 'svc',
      NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID: 'tpl_contact',
      NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID: 'tpl_news',
      NEXT_PUBLIC_EMAILJS_BLOCK_LIST: 'spam@example.com, bad@example.com',
      NEXT_PUBLIC_EMAILJS_THROTTLE_MS: '10000',
    })
    expect(config.mail).toMatchObject({
      mode: 'hosted',
      publicKey: 'pk',
      serviceId: 'svc',
      templates: { contact: 'tpl_contact', newsletter: 'tpl_news' },
      blockList: ['spam@example.com', 'bad@example.com'],
      throttleMs: 10000,
    })
  })

  it('gives the embedded mail API a new EmailJS account’s settings unless told otherwise', () => {
    expect(loadConfig({}).mail.api).toEqual({ allowNonBrowser: false, rateLimit: 1, dedupe: false })
    expect(
      loadConfig({
        MAIL_API_ALLOW_NON_BROWSER: 'true',
        MAIL_API_RATE_LIMIT: '0',
        MAIL_API_DEDUPE: '1',
      }).mail.api,
    ).toEqual({ allowNonBrowser: true, rateLimit: 0, dedupe: true })
    expect(problems({ MAIL_API_RATE_LIMIT: 'fast', MAIL_API_DEDUPE: 'yes' })).toEqual([
      'MAIL_API_RATE_LIMIT: expected requests per second such as 1 (0 turns the limit off), got "fast"',
      'MAIL_API_DEDUPE: expected "true" or "false" for MAIL_API_DEDUPE, got "yes"',
    ])
  })

  it('reports every bad variable in one error', () => {
    const found = problems({
      PORT: 'eighty',
      SITE_URL: 'not a url',
      SMTP_URL: 'http://mail',
      REDIS_URL: 'localhost:6379',
      NEXT_PUBLIC_EMAILJS_THROTTLE_MS: '-5',
      NEXT_PUBLIC_EMAILJS_BLOCK_HEADLESS: 'maybe',
    })
    expect(found.map((p) => p.split(':')[0]).sort()).toEqual([
      'NEXT_PUBLIC_EMAILJS_BLOCK_HEADLESS',
      'NEXT_PUBLIC_EMAILJS_THROTTLE_MS',
      'PORT',
      'REDIS_URL',
      'SITE_URL',
      'SMTP_URL',
    ])
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: expected a port number/)
  })
})
