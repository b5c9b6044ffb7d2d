import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'

const SEND = '/local/emailjs/api/v1.0/email/send'

/** Headers a page on the site sends, from its own client address (each its own rate limit). */
function asBrowser(baseURL: string | undefined, client: string) {
  return { Origin: new URL(baseURL!).origin, 'X-Forwarded-For': client }
}

test('the embedded mail API answers as EmailJS does', async ({ request, baseURL }) => {
  const ids = { user_id: 'facet-local-public-key', service_id: 'facet-local' }

  const missing = await request.post(SEND, {
    headers: asBrowser(baseURL, '203.0.113.21'),
    data: { lib_version: '4.4.1' },
  })
  expect(missing.status()).toBe(400)
  expect(await missing.text()).toBe('The user_id parameter is required')

  const unknownService = await request.post(SEND, {
    headers: asBrowser(baseURL, '203.0.113.22'),
    data: { ...ids, service_id: 'nope', template_id: 'contact' },
  })
  expect(unknownService.status()).toBe(400)
  expect(await unknownService.text()).toBe(
    'The service ID not found. To find this ID, visit https://dashboard.emailjs.com/admin',
  )

  // default_service names the account's service: the request gets as far as the template.
  const unknownTemplate = await request.post(SEND, {
    headers: asBrowser(baseURL, '203.0.113.23'),
    data: { ...ids, service_id: 'default_service', template_id: 'nope' },
  })
  expect(unknownTemplate.status()).toBe(400)
  expect(await unknownTemplate.text()).toMatch(/^The template ID not found/)

  // A server-side client (no Origin) is refused, as on a new EmailJS account.
  const nonBrowser = await request.post(SEND, {
    headers: { 'X-Forwarded-For': '203.0.113.24' },
    data: { ...ids, template_id: 'contact' },
  })
  expect(nonBrowser.status()).toBe(403)
  expect(await nonBrowser.text()).toBe('API calls are disabled for non-browser applications')

  const otherOrigin = await request.post(SEND, {
    headers: { Origin: 'https://elsewhere.example' },
    data: { ...ids, template_id: 'contact' },
  })
  expect(otherOrigin.status()).toBe(403)

  // The SDK's preflight from the site's own origin is answered.
  const preflight = await request.fetch(SEND, {
    method: 'OPTIONS',
    headers: {
      Origin: new URL(baseURL!).origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    },
  })
  expect(preflight.status()).toBe(204)
  expect(preflight.headers()['access-control-allow-origin']).toBe(new URL(baseURL!).origin)
})

test('/local/outbox lists received messages to a loopback visitor, and nobody else', async ({
  page,
  request,
  baseURL,
}) => {
  const id = randomUUID()
  const subject = `Viewer check ${id.slice(0, 8)}`
  const sent = await request.post(SEND, {
    headers: asBrowser(baseURL, '203.0.113.25'),
    data: {
      lib_version: '4.4.1',
      user_id: 'facet-local-public-key',
      service_id: 'facet-local',
      template_id: 'contact',
      template_params: {
        name: 'Ann',
        email: 'ann@example.com',
        subject,
        message: 'Seen in the viewer',
        message_id: id,
        lang: 'en-us',
      },
    },
  })
  expect(await sent.text()).toBe('OK')
  await page.goto('/local/outbox')
  const article = page.locator(`article[data-message-id="${id}"]`)
  await expect(article.getByRole('heading')).toHaveText(`[Contact] ${subject}`)
  await expect(article).toContainText('Seen in the viewer')

  // A client that is not on loopback (as a proxy reports it) gets no outbox at all.
  const remote = await request.get('/local/outbox', {
    headers: { 'X-Forwarded-For': '203.0.113.7' },
  })
  expect(remote.status()).toBe(404)
})
