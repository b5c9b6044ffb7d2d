import type { IncomingMessage, ServerResponse, OutgoingHttpHeaders } from 'node:http'

export const DEFAULT_RECHECK_MS: number
export const DEFAULT_MAX_PAGES: number
/** A page as Next.js sent it. */
export type Answer = { status: number; headers: OutgoingHttpHeaders; body: Buffer }
/** A page as the layer sends it. */
export type PreparedPage = {
  status: number
  headers: OutgoingHttpHeaders
  html: Buffer
  version: string
  refused: number
}
/** The key of a request whose answer may be shared, else undefined. */
export function pageKey(req: IncomingMessage): string | undefined
/** Whether Next.js marks this answer as the same for everyone. */
export function isSharedPage(status: number, headers: OutgoingHttpHeaders): boolean
/** The header by which the site marks a per-request page as the same for every visitor. */
export const SAME_FOR_EVERYONE_HEADER: string
/** Whether a page rendered per request may be kept for a second (marked, 200, no cookie). */
export function isSameForEveryone(status: number, headers: OutgoingHttpHeaders): boolean
/** The headers without the layer's own marker. */
export function withoutMarker(headers: OutgoingHttpHeaders): OutgoingHttpHeaders
/** Whether an Accept-Encoding header accepts `coding`. */
export function accepts(header: string | string[] | undefined, coding: string): boolean
/** Rewrites a page and hashes its inline scripts. */
export function preparePage(
  answer: Answer,
  options?: { version?: string; brotliQuality?: number; afterPaint?: boolean },
): PreparedPage
/** Sends a prepared page. */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: PreparedPage,
): Promise<void>
/** The pages kept for sharing. */
export function createPageCache(options?: {
  recheckMs?: number
  maxPages?: number
  now?: () => number
}): {
  fresh(key: string): PreparedPage | undefined
  has(key: string): boolean
  keep(
    key: string,
    answer: Answer,
    options?: { perRequest?: boolean; brotliQuality?: number },
  ): PreparedPage
  clear(): void
  readonly size: number
}
