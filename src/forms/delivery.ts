import { MailError, toMailError } from '@/lib/mail/errors'
import { sendContact, sendNewsletter } from '@/lib/mail/client'
import type { PublicMailOptions } from '@/lib/mail/options'
import { deleteMessage, getMessage, listMessages, putMessage, type OutboxMessage } from './outbox'
import { messageSchemas, type FormKind } from './schemas'

/**
 * Delivery with the outbox: save, send, then remove after a 2xx. Network errors, 5xx and 429 keep
 * the message `pending` and retry with capped exponential backoff (on a timer, when the browser
 * comes back online, and on the next visit). Other refusals keep it `held` for the visitor.
 *
 * The guarantee, on EmailJS's terms (it does not deduplicate): every message is sent at least
 * once, and twice only when an answer is lost after EmailJS accepted the message (the connection
 * drops between its 200 and the browser). Nothing else sends a message twice: a message is sent
 * again only after a failure, every other failure (no connection, 5xx, 429, a refusal) means
 * EmailJS did not accept it, and one message is never being sent twice at once, in one tab or
 * across tabs (`exclusively`).
 */

/**
 * Loads what sending needs (the SDK, idb) ahead of the first submit: on the visitor's first
 * interaction, so a submit made after the connection dropped still has its code.
 */
export function preloadDelivery(): Promise<unknown> {
  return Promise.all([
    import('@emailjs/browser'),
    import('idb'),
    import('./schemas'),
    import('@hookform/resolvers/zod'),
  ])
}

/** The first retry's delay; each next one doubles, up to `MAX_DELAY_MS`. */
export const BASE_DELAY_MS = 2_000
export const MAX_DELAY_MS = 60_000

/** The delay before retry number `attempts` (1 = after the first failure). */
export function backoff(attempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1))
}

/** What came of one attempt. */
export type DeliveryResult =
  { ok: true; message: OutboxMessage } | { ok: false; message: OutboxMessage; error: MailError }

/**
 * The `<form>` that `sendForm` sends for a newsletter message: built from the message as saved in
 * the outbox, on the first attempt and on every retry alike, so every request carries the saved
 * `message_id` (the reference the visitor is shown). Never the live form on the page: React puts
 * an uncontrolled hidden input back to its `defaultValue` on the next render (a hidden input's
 * value is its `value` attribute), and the "sending" status renders before `sendForm` reads the
 * form, so the live form went out with an empty `message_id` and the mail API made up its own.
 */
export function formOf(fields: Record<string, string>): HTMLFormElement {
  const form = document.createElement('form')
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  return form
}

const sending = new Set<string>()

/**
 * Runs `send` unless this message is being sent already: in this tab (`sending`), or in another
 * tab of the site (a Web Lock named after the message, taken only if free). Without it, two tabs
 * flushing the same pending message would each send it: a duplicate no lost answer caused.
 */
async function exclusively<T>(id: string, send: () => Promise<T>): Promise<T | undefined> {
  if (sending.has(id)) return undefined
  sending.add(id)
  try {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks
    if (!locks) return await send()
    return await locks.request(`facet-mail:${id}`, { ifAvailable: true }, (lock) =>
      lock ? send() : undefined,
    )
  } finally {
    sending.delete(id)
  }
}

/**
 * Sends one saved message, at most once at a time across the site's tabs. A message another tab
 * has delivered (gone from the outbox) or tried since this one was read is left alone.
 */
export async function attemptDelivery(
  message: OutboxMessage,
  options: PublicMailOptions,
): Promise<DeliveryResult | undefined> {
  return exclusively(message.id, async () => {
    const current = await getMessage(message.id)
    if (!current || current.attempts !== message.attempts) return undefined
    return send(message, options)
  })
}

async function send(message: OutboxMessage, options: PublicMailOptions): Promise<DeliveryResult> {
  const parsed = messageSchemas[message.form].safeParse(message.fields)
  if (!parsed.success) {
    // Never send what the schema refuses (an old or tampered entry): hold it for the visitor.
    const held = { ...message, state: 'held' as const, lastError: 'invalid' as const }
    await putMessage(held)
    return { ok: false, message: held, error: new MailError('invalid', undefined, 'schema') }
  }
  try {
    if (message.form === 'contact') await sendContact(options, message.fields)
    else await sendNewsletter(options, formOf(message.fields))
  } catch (thrown) {
    const error = toMailError(thrown)
    const attempts = message.attempts + 1
    const next: OutboxMessage = {
      ...message,
      attempts,
      lastError: error.kind,
      state: error.retryable ? 'pending' : 'held',
      nextAttemptAt: Date.now() + backoff(attempts),
    }
    await putMessage(next)
    return { ok: false, message: next, error }
  }
  await deleteMessage(message.id)
  return { ok: true, message }
}

/** Saves a new message, then sends it. */
export async function submitMessage(
  message: OutboxMessage,
  options: PublicMailOptions,
): Promise<DeliveryResult | undefined> {
  await putMessage(message)
  return attemptDelivery(message, options)
}

/**
 * Sends every pending message of `form` that is due (or all of them, when `force`). Returns the
 * milliseconds until the next one is due, or undefined when none is pending.
 */
export async function flushOutbox(
  form: FormKind,
  options: PublicMailOptions,
  onResult: (result: DeliveryResult) => void,
  force = false,
): Promise<number | undefined> {
  const now = Date.now()
  for (const message of await listMessages()) {
    if (message.form !== form || message.state !== 'pending') continue
    if (!force && message.nextAttemptAt > now) continue
    const result = await attemptDelivery(message, options)
    if (result) onResult(result)
  }
  const waiting = (await listMessages()).filter((m) => m.form === form && m.state === 'pending')
  if (waiting.length === 0) return undefined
  return Math.max(0, Math.min(...waiting.map((m) => m.nextAttemptAt)) - Date.now())
}
