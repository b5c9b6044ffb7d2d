/** Next's cache entry as a handler returns it (next/dist/server/lib/incremental-cache). */
export type CacheEntry = {
  value: unknown
  lastModified: number
  cacheControl?: unknown
  tags?: string[]
}

/** The context Next gives every cache handler (next/dist/server/next-server.js). */
export type CacheHandlerContext = {
  serverDistDir: string
  fs?: unknown
  dev?: boolean
  flushToDisk?: boolean
  maxMemoryCacheSize?: number
  revalidatedTags?: string[]
  [key: string]: unknown
}

/** What a get or set is about: `kind`, and for fetches their tags. */
export type CacheCallContext = {
  kind?: string
  tags?: string[]
  softTags?: string[]
  fetchCache?: boolean
  cacheControl?: unknown
  [key: string]: unknown
}

export const KEY_PREFIX: string
export const TAGS_KEY: string

/** Where the shared cache stands, for the readiness endpoint. */
export type CacheStatus =
  | { shared: false }
  | { shared: true; redis: 'connecting' | 'ready' | 'down'; since: number; error?: string }

export function cacheStatus(): CacheStatus
export function closeSharedCache(): Promise<void>
export function entryTags(
  entry: { value?: unknown; tags?: string[] },
  context: { kind: string; tags?: string[]; softTags?: string[] },
): string[]

/** Next's `cacheHandler`, shared by every node through Redis when REDIS_URL is set. */
export default class SharedCacheHandler {
  constructor(context: CacheHandlerContext)
  get(key: string, context: CacheCallContext & { kind: string }): Promise<CacheEntry | null>
  set(key: string, data: unknown, context: CacheCallContext): Promise<void>
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>
  resetRequestCache(): void
}
