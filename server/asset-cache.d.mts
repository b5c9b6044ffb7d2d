import type { IncomingMessage, ServerResponse } from 'node:http'

/** Whether the layer compresses this answer (a compressible type, however Next.js set it). */
export function compressible(req: IncomingMessage, res: ServerResponse): boolean
export const DEFAULT_MAX_BYTES: number
export const MAX_KEPT_BODY: number
/** Immutable assets kept compressed at the best quality, served from memory. */
export function createAssetCache(options?: { maxBytes?: number; log?: Pick<Console, 'error'> }): {
  serve(req: IncomingMessage, res: ServerResponse): boolean
  watch(req: IncomingMessage, res: ServerResponse): void
  readonly size: number
  readonly bytes: number
  clear(): void
}
