import { createHash, timingSafeEqual } from 'node:crypto'
import { EMAILJS_TEXTS, EmailJsError } from './errors'
import type { SendRequest } from './requests'

/**
 * The account the mail API stands in for, and the checks EmailJS makes against it: its origins,
 * its ids, and its security settings (Account > Security on EmailJS). docs/mail-api.md lists each
 * answer's source.
 */

/** EmailJS's reserved service id for the account's default service (its REST docs). */
export const DEFAULT_SERVICE = 'default_service'

/** The account's ids and settings. */
export type MailAccount = {
  publicKey: string
  serviceId: string
  /** Origins a browser may send from, besides the API's own. */
  allowedOrigins: string[]
  allowNonBrowser: boolean
  privateKey?: string
}

/**
 * True for a request from a browser. EmailJS does not document how it tells; every browser sends
 * `Origin` with a POST from a page (the Fetch standard, same-origin included), and no server
 * client does unless told to (`@emailjs/nodejs` sends none), so its absence marks a non-browser
 * call. Users working around the 403 by adding an `Origin` header report it passes, which
 * suggests EmailJS looks at the same header.
 */
function isBrowserRequest(request: Request): boolean {
  return request.headers.has('origin')
}

/** Compares secrets in constant time (their hashes have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

/**
 * The origins a browser may send from: the account's and the API's own (as the request saw it,
 * or as a proxy in front passes it on in `X-Forwarded-Host`; Facet's own choice, so that the site
 * works behind a proxy: EmailJS has one origin).
 */
function allowedOrigins(request: Request, account: MailAccount): Set<string> {
  const own = new URL(request.url)
  const allowed = new Set([own.origin, ...account.allowedOrigins])
  const host = request.headers.get('host')
  if (host) allowed.add(`${own.protocol}//${host}`)
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim()
  const forwarded = first('x-forwarded-host')
  const proto = first('x-forwarded-proto')
  if (forwarded)
    allowed.add(
      `${proto === 'https' || proto === 'http' ? `${proto}:` : own.protocol}//${forwarded}`,
    )
  return allowed
}

/** 403 for a browser request from an origin that is neither the API's nor allowed. */
export function checkOrigin(request: Request, account: MailAccount): void {
  const origin = request.headers.get('origin')
  if (origin && !allowedOrigins(request, account).has(origin))
    throw new EmailJsError(403, EMAILJS_TEXTS.forbiddenOrigin)
}

/** 400s for missing ids, in the order EmailJS names them, then for an unknown public key. */
function checkPublicKey(ids: SendRequest['ids'], account: MailAccount): void {
  if (!nonEmptyString(ids.user_id)) throw new EmailJsError(400, EMAILJS_TEXTS.userIdRequired)
  if (!nonEmptyString(ids.service_id)) throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdRequired)
  if (!nonEmptyString(ids.template_id))
    throw new EmailJsError(400, EMAILJS_TEXTS.templateIdRequired)
  if (ids.user_id !== account.publicKey) throw new EmailJsError(400, EMAILJS_TEXTS.publicKeyInvalid)
}

/** 403s from the account's security settings: non-browser calls, then the private key. */
function checkSecurity(request: Request, ids: SendRequest['ids'], account: MailAccount): void {
  if (!account.allowNonBrowser && !isBrowserRequest(request))
    throw new EmailJsError(403, EMAILJS_TEXTS.nonBrowserDisabled)
  if (account.privateKey === undefined) return
  if (!nonEmptyString(ids.accessToken)) throw new EmailJsError(403, EMAILJS_TEXTS.privateKeyMissing)
  if (!sameSecret(ids.accessToken, account.privateKey))
    throw new EmailJsError(403, EMAILJS_TEXTS.privateKeyWrong)
}

/**
 * Checks a request's ids against the account and returns its template id. The security settings
 * apply once `user_id` has named the account, before the service is looked up (Facet's order:
 * EmailJS's settings belong to an account, so they cannot apply before it is known).
 */
export function checkIds(request: Request, ids: SendRequest['ids'], account: MailAccount): string {
  checkPublicKey(ids, account)
  checkSecurity(request, ids, account)
  if (ids.service_id !== account.serviceId && ids.service_id !== DEFAULT_SERVICE)
    throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdNotFound)
  return ids.template_id as string
}
