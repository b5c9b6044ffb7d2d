// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest'
import { sendContact, throttleKey } from '@/lib/mail/client'
import { MailError, toMailError } from '@/lib/mail/errors'
import type { PublicMailOptions } from '@/lib/mail/options'

const options: PublicMailOptions = {
  publicKey: 'pk',
  serviceId: 'svc',
  templates: { contact: 'contact', newsletter: 'newsletter' },
  blockHeadless: false,
  blockList: ['blocked@example.com'],
  throttleMs: 60_000,
  localPath: '/local/emailjs',
}
const params = { name: 'Ann', email: 'ann@example.com', subject: 'Hi', message: 'Hello' }

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('toMailError maps every failure in one place', () => {
  test.each([
    [new TypeError('Failed to fetch'), 'network', true],
    [{ status: 0, text: 'Network Error' }, 'network', true],
    [{ status: 500, text: 'Internal Server Error' }, 'unavailable', true],
    [{ status: 503, text: 'Service Unavailable' }, 'unavailable', true],
    [{ status: 429, text: 'Too Many Requests' }, 'rate_limited', true],
    [{ status: 400, text: 'The user_id parameter is required' }, 'invalid', false],
    [{ status: 413, text: 'Variables size limit' }, 'invalid', false],
    [{ status: 403, text: 'Forbidden' }, 'blocked', false],
    [{ status: 451, text: 'Unavailable For Headless Browser' }, 'headless', false],
    [{ status: 412, text: 'Gmail_API: Invalid grant' }, 'misconfigured', false],
    [{ status: 404, text: 'Account not found' }, 'misconfigured', false],
    [
      'The public key is required. Visit https://dashboard.emailjs.com/admin/account',
      'misconfigured',
      false,
    ],
  ])('%o is %s (retry: %s)', (thrown, kind, retryable) => {
    const error = toMailError(thrown)
    expect(error).toBeInstanceOf(MailError)
    expect(error.kind).toBe(kind)
    expect(error.retryable).toBe(retryable)
  })
})

describe('sendContact through the real SDK', () => {
  test('posts what EmailJS expects to the embedded mail API on this origin', async () => {
    const fetch = vi.fn(async () => new Response('OK', { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    await sendContact({ ...options, throttleMs: 0 }, params)
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe(`${window.location.origin}/local/emailjs/api/v1.0/email/send`)
    expect(JSON.parse(String(init.body))).toEqual({
      lib_version: '4.4.1',
      user_id: 'pk',
      service_id: 'svc',
      template_id: 'contact',
      template_params: params,
    })
  })

  test('a failed send does not lock the visitor out of the retry (throttle on)', async () => {
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('OK', { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    await expect(sendContact(options, params)).rejects.toMatchObject({ kind: 'network' })
    expect(localStorage.getItem(throttleKey('contact'))).toBeNull()
    await expect(sendContact(options, params)).resolves.toBeUndefined()
    expect(fetch).toHaveBeenCalledTimes(2)
    // After a success the throttle holds: the next send within the window is the SDK's local 429.
    await expect(sendContact(options, params)).rejects.toMatchObject({
      kind: 'rate_limited',
      status: 429,
    })
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  test('the block list answers 403 without a request', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    await expect(
      sendContact(options, { ...params, email: 'blocked@example.com' }),
    ).rejects.toMatchObject({ kind: 'blocked', status: 403 })
    expect(fetch).not.toHaveBeenCalled()
  })

  test('missing ids (a plain string thrown by the SDK) become a typed error, not a hang', async () => {
    await expect(sendContact({ ...options, publicKey: '' }, params)).rejects.toMatchObject({
      kind: 'misconfigured',
    })
  })
})
