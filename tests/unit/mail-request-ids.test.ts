// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { OutboxMessage } from '@/forms/outbox'
import { MESSAGE_ID } from '@services/mail-api/outbox'
import { testMailOptions } from './support/memory-outbox'

/**
 * The requests the site's delivery builds, through the real `@emailjs/browser` (only `fetch` is
 * stubbed): on both paths (`send` for the contact form, `sendForm` for the newsletter), the first
 * attempt and every retry from the outbox carry the saved message's id as `message_id`, in a
 * shape the mail API takes as the message's id (its `.eml` name and `X-Facet-Message-Id`).
 */

vi.mock('@/forms/outbox', () => import('./support/memory-outbox'))
const { outboxStore: store } = await import('./support/memory-outbox')

const { attemptDelivery, flushOutbox } = await import('@/forms/delivery')

const options = testMailOptions

function message(form: 'contact' | 'newsletter'): OutboxMessage {
  const id = crypto.randomUUID()
  const visitor: Record<string, string> =
    form === 'contact'
      ? { name: 'Ann', email: 'ann@example.com', subject: 'Hi', message: 'Hello' }
      : { email: 'reader@example.com' }
  return {
    id,
    form,
    fields: { ...visitor, message_id: id, lang: 'en-us' },
    createdAt: Date.now(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'pending',
  }
}

type Sent = { url: string; fields: Record<string, string[]> }

/** What one request carried: `send`'s template parameters, or every field of `sendForm`'s form. */
function read(url: string, init: RequestInit): Sent {
  const fields: Record<string, string[]> = {}
  const add = (key: string, value: unknown) => (fields[key] ??= []).push(String(value))
  if (init.body instanceof FormData) for (const [k, v] of init.body.entries()) add(k, v)
  else for (const [k, v] of Object.entries(JSON.parse(String(init.body)).template_params)) add(k, v)
  return { url, fields }
}

let sent: Sent[] = []
/** The answers the stubbed network gives, in order; then 200 OK. */
let answers: number[] = []

beforeEach(() => {
  store.clear()
  sent = []
  answers = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push(read(url, init))
      const status = answers.shift() ?? 200
      return new Response(status === 200 ? 'OK' : 'Internal Server Error', { status })
    }),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe.each([
  ['contact', 'send'],
  ['newsletter', 'send-form'],
] as const)('the %s form (%s)', (form, endpoint) => {
  test('the first attempt carries the saved id as one valid message_id', async () => {
    const saved = message(form)
    store.set(saved.id, saved)
    expect(await attemptDelivery(saved, options)).toMatchObject({ ok: true })
    expect(sent).toHaveLength(1)
    expect(sent[0].url).toMatch(new RegExp(`/local/emailjs/api/v1\\.0/email/${endpoint}$`))
    expect(sent[0].fields.message_id).toEqual([saved.id])
    expect(MESSAGE_ID.test(sent[0].fields.message_id[0])).toBe(true)
    expect(sent[0].fields.lang).toEqual(['en-us'])
  })

  test('a retry from the outbox keeps the id of the first attempt', async () => {
    const saved = message(form)
    store.set(saved.id, saved)
    answers = [500, 500]
    expect(await attemptDelivery(saved, options)).toMatchObject({ ok: false })
    // Two retries from the outbox (as a timer, `online` or the next visit would run them).
    await flushOutbox(form, options, () => undefined, true)
    expect(await flushOutbox(form, options, () => undefined, true)).toBeUndefined()
    expect(store.size).toBe(0)
    expect(sent).toHaveLength(3)
    for (const request of sent) expect(request.fields.message_id).toEqual([saved.id])
  })
})
