import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CdnPurge } from './cdn.mjs'
import type { createHealth } from './health.mjs'
import type { createPageCache } from './page-cache.mjs'
import type { createAssetCache } from './asset-cache.mjs'

export const DEFAULT_MAX_CONCURRENT: number
/** The paths Next.js prerendered at build time. */
export function prerenderedPaths(distDir: string): Set<string>
/** The serving layer's request listener in front of Next's request handler. */
export function createSiteListener(options: {
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
  serveStatic?: (req: IncomingMessage, res: ServerResponse) => boolean
  prerendered?: Set<string>
  health?: ReturnType<typeof createHealth>
  maxConcurrent?: number
  pageCache?: ReturnType<typeof createPageCache>
  assetCache?: ReturnType<typeof createAssetCache>
  cdn?: CdnPurge
  log?: Pick<Console, 'error' | 'warn'>
}): (req: IncomingMessage, res: ServerResponse) => void
