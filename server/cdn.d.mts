import type { IncomingMessage, ServerResponse } from 'node:http'

export const CONTENT_TAG: string
export const DEFAULT_PURGE_SETTLE_MS: number
/** Tags the answer to `req` when a CDN may keep it and content changes it. */
export function tagForCdn(req: IncomingMessage, res: ServerResponse, pathname: string): void
/** Sends one purge of `tags` to `url`; rejects when it fails. */
export type PurgeSender = (url: string, tags: string[]) => Promise<void>
/** Varnish's purge (docs/cdn/varnish.vcl): `PURGE` with `Surrogate-Key`. */
export const purgeByTag: PurgeSender
export type CdnPurge = {
  /** Purges `tags` now and after the settle delay; true when both succeeded. */
  purge: (tags?: string[]) => Promise<boolean>
}
export function createCdnPurge(options?: {
  url?: string
  send?: PurgeSender
  settleMs?: number
  log?: Pick<Console, 'error'>
}): CdnPurge | undefined
