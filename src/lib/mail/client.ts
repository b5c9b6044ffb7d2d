import { cachedUntilRejected } from '@/lib/cached-until-rejected'
import { MailError, toMailError } from './errors'
import type { PublicMailOptions } from './options'

/**
 * The browser's one seam to EmailJS. `@emailjs/browser` is imported on the first send only, so
 * pages pay for it when a visitor actually writes. Every failure comes out as a `MailError`.
 */

type EmailJs = typeof import('@emailjs/browser')

/**
 * The SDK, loaded once. When its code cannot be fetched (the connection dropped before the first
 * send), that is a network failure, retried like one, and the next attempt fetches it again.
 */
const loadSdk = cachedUntilRejected<EmailJs>(() =>
  import('@emailjs/browser').catch((error: unknown) => {
    throw new MailError('network', undefined, 'the mail SDK could not be loaded', { cause: error })
  }),
)

/** The SDK's throttle key for a form: one per form, so the contact form never blocks the newsletter. */
export function throttleKey(form: string): string {
  return `facet-mail:${form}`
}

/**
 * The SDK's storage for its throttle: localStorage, given explicitly because `init` replaces the
 * store's default provider with whatever the options hold (nothing would disable the throttle).
 */
const storageProvider = {
  get: async (key: string) => readThrottle(key),
  set: async (key: string, value: string) => writeThrottle(key, value),
  remove: async (key: string) => writeThrottle(key, null),
}

/**
 * Configures the SDK for one form: `init(options, origin)`. `sendPost` reads the origin from the
 * SDK's store only, so the origin is set through `init`: the embedded mail API on this site in
 * local mode, EmailJS's default in hosted mode.
 */
function configure(emailjs: EmailJs, options: PublicMailOptions, form: string): void {
  emailjs.init(
    {
      publicKey: options.publicKey,
      blockHeadless: options.blockHeadless,
      blockList: { list: options.blockList, watchVariable: 'email' },
      limitRate: { id: throttleKey(form), throttle: options.throttleMs },
      storageProvider,
    },
    options.localPath ? `${window.location.origin}${options.localPath}` : undefined,
  )
}

/**
 * Runs one SDK call. The SDK stores the throttle's timestamp in localStorage before the request
 * goes out, so a send that then fails would lock the visitor out of their own retry with a local
 * 429: after a failure, the key is put back as it was before this attempt.
 */
async function attempt<T>(form: string, call: (emailjs: EmailJs) => Promise<T>): Promise<T> {
  const key = throttleKey(form)
  const before = readThrottle(key)
  try {
    const emailjs = await loadSdk()
    return await call(emailjs)
  } catch (error) {
    const after = readThrottle(key)
    if (after !== before) writeThrottle(key, before)
    throw toMailError(error)
  }
}

function readThrottle(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function writeThrottle(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Storage is unavailable (private mode): the SDK cannot throttle either; nothing to undo.
  }
}

/** Sends the contact form's parameters with `emailjs.send`. Rejects with a `MailError`. */
export function sendContact(
  options: PublicMailOptions,
  params: Record<string, string>,
): Promise<void> {
  return attempt('contact', async (emailjs) => {
    configure(emailjs, options, 'contact')
    await emailjs.send(options.serviceId, options.templates.contact, params)
  })
}

/** Sends a newsletter `<form>` with `emailjs.sendForm`. Rejects with a `MailError`. */
export function sendNewsletter(options: PublicMailOptions, form: HTMLFormElement): Promise<void> {
  return attempt('newsletter', async (emailjs) => {
    configure(emailjs, options, 'newsletter')
    await emailjs.sendForm(options.serviceId, options.templates.newsletter, form)
  })
}
