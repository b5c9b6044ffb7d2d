import { timingSafeEqual } from 'node:crypto'

/**
 * Who may read the outbox viewer (`/local/outbox`): in local mode only, a loopback client, or
 * anyone presenting `OUTBOX_TOKEN` (`?token=` or `Authorization: Bearer`).
 *
 * The client's address comes from `X-Forwarded-For`, which `next start` fills with the socket's
 * address only when the request has none: a proxy in front must overwrite it, and a site exposed
 * without one should set `OUTBOX_TOKEN` and bind `LISTEN_HOST=127.0.0.1`.
 */
export function canReadOutbox(input: {
  mode: 'local' | 'hosted'
  token?: string
  forwardedFor?: string | null
  authorization?: string | null
  queryToken?: string | null
}): boolean {
  if (input.mode !== 'local') return false
  const given =
    input.queryToken ??
    (input.authorization?.startsWith('Bearer ') ? input.authorization.slice(7) : undefined)
  if (input.token && given !== undefined && sameSecret(given, input.token)) return true
  const address = input.forwardedFor?.split(',')[0]?.trim()
  return address !== undefined && isLoopback(address)
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '')
  return a === '::1' || /^127(\.\d{1,3}){3}$/.test(a)
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
