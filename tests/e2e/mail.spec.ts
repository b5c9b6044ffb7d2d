import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'

const SEND = '/local/emailjs/api/v1.0/email/send'

test('the embedded mail API answers as EmailJS does', async ({ request }) => {
  const missing = await request.post(SEND, { data: { lib_version: '4.4.1' } })
  expect(missing.status()).toBe(400)
  expect(await missing.text()).toBe('The user_id parameter is required')

  const unknown = await request.post(SEND, {
    data: { user_id: 'facet-local-public-key', service_id: 'facet-local', template_id: 'nope' },
  })
  expect(unknown.status()).toBe(400)
  expect(await unknown.text()).toMatch(/^The template ID not found/)

  const otherOrigin = await request.post(SEND, {
    headers: { Origin: 'https://elsewhere.example' },
    data: { user_id: 'facet-local-public-key', service_id: 'facet-local', template_id: 'contact' },
  })
  expect(otherOrigin.status()).toBe(403)
})

test('/local/outbox lists received messages to a loopback visitor, and nobody else', async ({
  page,
  request,
}) => {
  const id = randomUUID()
  const subject = `Viewer check ${id.slice(0, 8)}`
  const sent = await request.post(SEND, {
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
