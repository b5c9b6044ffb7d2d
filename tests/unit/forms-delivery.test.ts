import fc from 'fast-check'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import type { OutboxMessage } from '@/forms/outbox'
import { contactMessage } from '@/forms/schemas'
import type { PublicMailOptions } from '@/lib/mail/options'

vi.mock('@/forms/outbox', () => import('./support/memory-outbox'))
const { outboxStore: store } = await import('./support/memory-outbox')
const sendContact = vi.fn<(o: unknown, p: Record<string, string>) => Promise<void>>()
vi.mock('@/lib/mail/client', () => ({ sendContact, sendNewsletter: vi.fn() }))

const { attemptDelivery, backoff, flushOutbox, MAX_DELAY_MS } = await import('@/forms/delivery')
const { MailError } = await import('@/lib/mail/errors')

const options = {} as PublicMailOptions
const ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'

function message(fields: Record<string, string>): OutboxMessage {
  return {
    id: ID,
    form: 'contact',
    fields,
    createdAt: Date.now(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'pending',
  }
}
const good = {
  name: 'Ann',
  email: 'ann@example.com',
  subject: 'Hi',
  message: 'Hello',
  message_id: ID,
  lang: 'en-us',
}

beforeEach(() => {
  store.clear()
  sendContact.mockReset()
})

describe('delivery', () => {
  test('no input the schema refuses reaches the network', async () => {
    sendContact.mockResolvedValue(undefined)
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: fc.string({ maxLength: 120 }),
          email: fc.oneof(fc.emailAddress(), fc.string()),
          subject: fc.string({ maxLength: 160 }),
          message: fc.string({ maxLength: 50 }),
        }),
        async (fields) => {
          sendContact.mockClear()
          const all = { ...fields, message_id: ID, lang: 'en-us' }
          store.set(ID, message(all))
          await attemptDelivery(message(all), options)
          const valid = contactMessage.safeParse(all).success
          expect(sendContact).toHaveBeenCalledTimes(valid ? 1 : 0)
        },
      ),
      { numRuns: 300 },
    )
  })

  test('keeps a message until a 2xx, then removes it', async () => {
    sendContact.mockRejectedValueOnce(new MailError('network', undefined, 'offline'))
    store.set(ID, message(good))
    const first = await attemptDelivery(message(good), options)
    expect(first).toMatchObject({ ok: false, message: { state: 'pending', attempts: 1 } })
    expect(store.has(ID)).toBe(true)
    sendContact.mockResolvedValueOnce(undefined)
    expect(await flushOutbox('contact', options, () => undefined, true)).toBeUndefined()
    expect(store.has(ID)).toBe(false)
  })

  test('holds a refused message for the visitor instead of retrying it', async () => {
    sendContact.mockRejectedValue(new MailError('blocked', 403, 'Forbidden'))
    store.set(ID, message(good))
    const result = await attemptDelivery(message(good), options)
    expect(result).toMatchObject({ ok: false, message: { state: 'held', lastError: 'blocked' } })
    sendContact.mockClear()
    await flushOutbox('contact', options, () => undefined, true)
    expect(sendContact).not.toHaveBeenCalled()
  })

  test('leaves a message alone once it is gone from the outbox or was tried since it was read', async () => {
    sendContact.mockResolvedValue(undefined)
    expect(await attemptDelivery(message(good), options)).toBeUndefined()
    store.set(ID, { ...message(good), attempts: 1 })
    expect(await attemptDelivery(message(good), options)).toBeUndefined()
    expect(sendContact).not.toHaveBeenCalled()
  })

  test('backoff doubles and is capped', () => {
    expect([1, 2, 3, 4].map(backoff)).toEqual([2000, 4000, 8000, 16000])
    expect(backoff(50)).toBe(MAX_DELAY_MS)
  })
})

/**
 * The delivery guarantee on EmailJS's terms, fault by fault. A stand-in for EmailJS counts the
 * copies it accepts (it does not deduplicate); the first request meets the fault, the outbox is
 * then flushed until it is empty, as the form's retries do.
 */
describe('copies EmailJS would send, by fault', () => {
  const faults: [string, (params: Record<string, string>) => never, number][] = [
    [
      'the request never arrives',
      () => {
        throw new MailError('network', undefined, 'Failed to fetch')
      },
      1,
    ],
    [
      'a 5xx',
      () => {
        throw new MailError('unavailable', 503, 'Service Unavailable')
      },
      1,
    ],
    [
      'a 429',
      () => {
        throw new MailError('rate_limited', 429, 'Too Many Requests')
      },
      1,
    ],
    [
      'the answer is lost after EmailJS accepted the message',
      (params) => {
        accepted.push(params.message_id)
        throw new MailError('network', undefined, 'Failed to fetch')
      },
      2,
    ],
  ]
  let accepted: string[] = []

  async function deliverWith(fault: ((params: Record<string, string>) => never) | undefined) {
    accepted = []
    let first = true
    sendContact.mockImplementation(async (_options, params) => {
      if (first && fault) {
        first = false
        fault(params)
      }
      accepted.push(params.message_id)
    })
    store.set(ID, message(good))
    await attemptDelivery(message(good), options)
    for (let round = 0; round < 5 && store.size > 0; round++)
      await flushOutbox('contact', options, () => undefined, true)
    return accepted
  }

  test('no fault: one copy', async () => {
    expect(await deliverWith(undefined)).toEqual([ID])
  })

  test.each(faults)(
    '%s: %i cop(y/ies), all of the same message id',
    async (_fault, fault, copies) => {
      const sent = await deliverWith(fault)
      expect(sent).toHaveLength(copies)
      expect(new Set(sent)).toEqual(new Set([ID]))
      expect(store.size).toBe(0)
    },
  )

  test('a refusal (400): no copy, the message is held for the visitor', async () => {
    const sent = await deliverWith(() => {
      throw new MailError('invalid', 400, 'The template ID not found')
    })
    expect(sent).toEqual([])
    expect(store.get(ID)).toMatchObject({ state: 'held', lastError: 'invalid' })
  })

  test('two flushes of the same pending message at once send it once', async () => {
    sendContact.mockRejectedValueOnce(new MailError('network', undefined, 'offline'))
    store.set(ID, message(good))
    await attemptDelivery(message(good), options)
    accepted = []
    sendContact.mockImplementation(
      async (_options, params) => void accepted.push(params.message_id),
    )
    await Promise.all([
      flushOutbox('contact', options, () => undefined, true),
      flushOutbox('contact', options, () => undefined, true),
    ])
    expect(accepted).toEqual([ID])
  })
})
