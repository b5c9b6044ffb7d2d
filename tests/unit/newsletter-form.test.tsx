// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { FormMessages } from '@/forms/messages'
import { MESSAGE_ID } from '@services/mail-api/outbox'
import { testMailOptions } from './support/memory-outbox'

/**
 * The newsletter form as a visitor uses it, rendered by React with the real SDK (only `fetch`
 * and IndexedDB are stand-ins): the `message_id` the send-form request carries is the reference
 * the form then shows. When the live `<form>` was sent, React's re-render for "sending" put its
 * hidden `message_id` input back to "" before `sendForm` read it, and the mail API made up an id
 * the visitor was never shown.
 */

vi.mock('@/forms/outbox', () => import('./support/memory-outbox'))
const { outboxStore: store } = await import('./support/memory-outbox')

const { default: NewsletterForm } = await import('@/forms/NewsletterForm')
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const options = testMailOptions
const messages: FormMessages = {
  submit: 'Sign up',
  sending: 'Sending',
  success: 'Signed up',
  messageIdLabel: 'Reference:',
  queued: 'Saved, will send',
  errors: { required: 'req', too_long: 'long', email: 'email', characters: 'chars' },
  failures: {
    invalid: 'invalid',
    blocked: 'blocked',
    headless: 'headless',
    misconfigured: 'misconfigured',
  },
  tooFast: 'too fast',
  trapped: 'not sent: the hidden field was filled',
  honeypotLabel: 'Leave empty',
  copy: 'Copy',
  copied: 'Copied',
  mailto: 'Write',
}

let root: Root
let container: HTMLElement
const sent: FormData[] = []

beforeEach(() => {
  store.clear()
  sent.length = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(init.body as FormData)
      return new Response('OK', { status: 200 })
    }),
  )
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})
afterEach(() => {
  act(() => root.unmount())
  container.remove()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  localStorage.clear()
})

/** Polls `check` while React and the delivery settle. */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++)
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)))
  expect(check()).toBe(true)
}

test('the send-form request carries, as message_id, the reference the form shows', async () => {
  await act(async () =>
    root.render(
      <NewsletterForm
        label="E-mail"
        messages={messages}
        options={options}
        lang="en-us"
        contactEmail="hello@example.com"
      />,
    ),
  )
  const button = container.querySelector('button[type="submit"]') as HTMLButtonElement
  await until(() => !button.disabled)
  const input = container.querySelector('input[type="email"]') as HTMLInputElement
  await act(async () => {
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    set.call(input, 'reader@example.com')
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
  // Past the time trap: a person takes longer than 1.5 s to fill the form.
  const now = Date.now()
  vi.spyOn(Date, 'now').mockReturnValue(now + 2_000)
  await act(async () => button.click())
  await until(() => !!container.querySelector('[data-status="sent"] [data-message-id]'))

  const shown = container.querySelector('[data-message-id]')!.textContent!
  expect(MESSAGE_ID.test(shown)).toBe(true)
  expect(sent).toHaveLength(1)
  expect(sent[0]!.getAll('message_id')).toEqual([shown])
  expect(sent[0]!.get('email')).toBe('reader@example.com')
  expect(sent[0]!.get('lang')).toBe('en-us')
})
