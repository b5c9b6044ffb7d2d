// Next.js's incremental cache (ISR pages, route handlers, the fetch cache and `unstable_cache`,
// and the tags that purge them) shared by every node through Redis, so that `/api/revalidate` on
// any node purges every node. next.config.ts names this file as `cacheHandler` when REDIS_URL is
// set; without it, Next's own file cache is used and this file is never loaded.
//
// Written here rather than taken from npm: @neshca/cache-handler stops at Next 14;
// @fortedigital/nextjs-cache-handler (the Next 15/16 fork) needs Node 22, and reads the build's
// prerendered pages back itself, a copy of Next's own code that broke once already (16.3's
// per-segment data); @trieb.work/nextjs-turbo-redis-cache pins redis 4.7.0. This handler instead
// keeps Next's own file cache as its local tier, so the build's prerendered pages, their segment
// data and every later format change stay Next's business, and adds what Next lacks: entries and
// tag purges in Redis.
//
//   get: Redis first, then this node's own cache (the build's pages, its own renders); either way
//        the entry's tags are checked against the purges every node recorded in Redis.
//   set: this node's cache and Redis.
//   revalidateTag: this node's tags manifest (Next's own, which Next also reads) and Redis.
//
// Redis away: every call falls back to this node's cache at once (no queue, short timeouts), the
// loss and the return are logged once each, and the purges a node could not record are written
// when Redis returns.
//
// It loads two modules from `next/dist`: Next's default handler and its tags manifest. Both are
// internal, which is why package.json pins next exactly; tests/unit/cache-handler.test.ts drives
// them through this handler and fails if either moves.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { createClient, RESP_TYPES } from '@redis/client'

const require = createRequire(import.meta.url)
/** Next's default handler: memory, then `.next/server` and `.next/cache` on this node's disk. */
const FileSystemCache =
  require('next/dist/server/lib/incremental-cache/file-system-cache.js').default
/** The tag purges Next checks entries against (one per process, shared by Next's own code). */
const {
  tagsManifest,
  areTagsExpired,
} = require('next/dist/server/lib/incremental-cache/tags-manifest.external.js')

/** Every key this handler writes starts with this. */
export const KEY_PREFIX = 'facet:next:'
/**
 * The hash of tag purges, shared by every build: `tag` → `{"stale":ms,"expired":ms,"at":ms}`,
 * Next's own tags manifest entry plus when the purge was made.
 */
export const TAGS_KEY = `${KEY_PREFIX}tags`
/**
 * Entries expire from Redis after this long: it bounds the memory that builds no node runs any
 * more hold (each build writes under its own id). A node that finds nothing renders again.
 */
const ENTRY_TTL_SECONDS = 14 * 24 * 60 * 60
/** A Redis that answers slower than this counts as away for that call: the node answers alone. */
const COMMAND_TIMEOUT_MS = 1000
/**
 * After a command that Redis left unanswered, the node stops asking for this long: a Redis that
 * hangs costs one request a second, not every request.
 */
const PAUSE_AFTER_TIMEOUT_MS = 5000
/** How long the first requests wait for the first connection before answering from this node. */
const FIRST_CONNECT_WAIT_MS = 2000
/** The header in which Next lists a page's tags (next/dist/lib/constants.js). */
const CACHE_TAGS_HEADER = 'x-next-cache-tags'

/**
 * @typedef {{ state: 'connecting' | 'ready' | 'down', since: number, error?: string,
 *   client: import('@redis/client').RedisClientType, url: string,
 *   firstConnect: Promise<void>, unrecordedTags: Set<string>, pausedUntil: number }} Shared
 */

// One connection per process, kept on globalThis: Next creates a handler for every request, and
// a route that calls `cacheStatus()` may be bundled with a copy of this module of its own.
const SHARED = Symbol.for('facet.shared-cache')

/**
 * The connection to Redis for this process, made on first use; undefined without REDIS_URL and
 * during `next build` (build workers are short-lived, and every node reads the build's pages from
 * its own copy of the build).
 * @returns {Shared | undefined}
 */
function shared() {
  const url = process.env.REDIS_URL
  if (!url || process.env.NEXT_PHASE === 'phase-production-build') return undefined
  globalThis[SHARED] ??= connect(url)
  return globalThis[SHARED]
}

/** @param {string} url @returns {Shared} */
function connect(url) {
  const client = createClient({
    url,
    // Fail at once while disconnected instead of queueing requests behind a dead connection.
    disableOfflineQueue: true,
    // Entries are binary (v8-serialized); tag values are read back as text below.
    commandOptions: { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } },
    socket: {
      connectTimeout: COMMAND_TIMEOUT_MS,
      // Never give up: a node keeps serving alone and shares again once Redis is back.
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000),
    },
  })
  /** @type {Shared} */
  const state = {
    state: 'connecting',
    since: Date.now(),
    client,
    url: redact(url),
    unrecordedTags: new Set(),
    pausedUntil: 0,
    firstConnect: Promise.resolve(),
  }
  client.on('ready', () => {
    if (state.state === 'down') console.log(`shared cache: Redis at ${state.url} is back.`)
    Object.assign(state, { state: 'ready', since: Date.now(), error: undefined })
    // A Redis that restarted empty has lost the purges: every node writes back those it knows.
    for (const [tag, entry] of tagsManifest) if (entry.at) state.unrecordedTags.add(tag)
    void recordUnrecordedTags(state)
  })
  client.on('error', (error) => {
    // Emitted again on every failed reconnection: logged once, when the connection is lost.
    if (state.state !== 'down') {
      console.error(
        `shared cache: Redis at ${state.url} is unreachable (${describe(error)}); this node ` +
          'serves from its own cache until it returns.',
      )
      Object.assign(state, { state: 'down', since: Date.now() })
    }
    state.error = describe(error)
  })
  // The first failure is reported by the 'error' event above; reconnection goes on by itself.
  state.firstConnect = client.connect().then(
    () => undefined,
    () => undefined,
  )
  return state
}

/**
 * Where the shared cache stands, for the readiness endpoint: `shared` is false without REDIS_URL
 * (each node keeps Next's own cache); otherwise `redis` says whether this node reaches Redis now,
 * since when (`since`, ms since the epoch), and the last error while it does not. A node whose
 * Redis is down still serves, from its own cache, and shares again once Redis is back.
 * @returns {{ shared: false } | { shared: true, redis: 'connecting' | 'ready' | 'down',
 *   since: number, error?: string }}
 */
export function cacheStatus() {
  const s = shared()
  if (!s) return { shared: false }
  return { shared: true, redis: s.state, since: s.since, ...(s.error ? { error: s.error } : {}) }
}

/** Closes this process's connection to Redis (at shutdown); the next use opens a new one. */
export async function closeSharedCache() {
  /** @type {Shared | undefined} */
  const s = globalThis[SHARED]
  if (!s) return
  globalThis[SHARED] = undefined
  await s.firstConnect
  if (s.client.isOpen) await s.client.close()
}

/**
 * Next's `cacheHandler`: see the top of this file. The context is the one Next gives every cache
 * handler (next/dist/server/next-server.js, `getIncrementalCache`).
 */
export default class SharedCacheHandler {
  #local
  #buildId

  /** @param {{ serverDistDir: string } & Record<string, unknown>} context */
  constructor(context) {
    this.#local = new FileSystemCache(context)
    this.#buildId = buildId(context.serverDistDir)
  }

  /**
   * @param {string} key
   * @param {{ kind: string, tags?: string[], softTags?: string[] }} context
   */
  async get(key, context) {
    const entry = (await this.#read(key)) ?? (await this.#local.get(key, context))
    if (!entry) return null
    const tags = entryTags(entry, context)
    await readPurges(tags)
    // Purged by a node since this entry was made: render again, as Next's own cache does.
    return areTagsExpired(tags, entry.lastModified) ? null : entry
  }

  /**
   * @param {string} key
   * @param {unknown} data
   * @param {{ fetchCache?: boolean, tags?: string[], cacheControl?: unknown }} context
   */
  async set(key, data, context) {
    // This node's own copy, for when Redis is away (and the same files Next writes without us).
    await this.#local.set(key, data, context)
    const entry = {
      value: data,
      lastModified: Date.now(),
      cacheControl: context.fetchCache ? undefined : context.cacheControl,
      tags: context.fetchCache ? (context.tags ?? []) : [],
    }
    await onRedis('store a cache entry', (client) =>
      client.set(this.#redisKey(key), serialize(entry), { EX: ENTRY_TTL_SECONDS }),
    )
  }

  /**
   * Called by `revalidateTag` and `revalidatePath` (next/dist/server/revalidation-utils.js).
   * @param {string | string[]} tags
   * @param {{ expire?: number }} [durations]
   */
  async revalidateTag(tags, durations) {
    // Next's default handler writes this node's tags manifest, which Next reads as well.
    await this.#local.revalidateTag(tags, durations)
    const s = shared()
    if (!s) return
    const at = Date.now()
    for (const tag of typeof tags === 'string' ? [tags] : tags) {
      tagsManifest.set(tag, { ...tagsManifest.get(tag), at })
      s.unrecordedTags.add(tag)
    }
    await recordUnrecordedTags(s)
  }

  resetRequestCache() {}

  /** @param {string} key */
  async #read(key) {
    const stored = await onRedis('read a cache entry', (client) => client.get(this.#redisKey(key)))
    if (!stored) return null
    try {
      return deserialize(stored)
    } catch {
      // Written by another Node.js whose format this one cannot read: a miss.
      return null
    }
  }

  /** @param {string} key */
  #redisKey(key) {
    // Each build's pages name its own scripts: builds never share entries, only tag purges.
    return `${KEY_PREFIX}${this.#buildId}:${key}`
  }
}

/**
 * Runs `command` on Redis when it is reachable. Returns its result, or undefined when Redis is
 * away or the command fails (which the 'error' event or this function logs once).
 * @template T
 * @param {string} what
 * @param {(client: import('@redis/client').RedisClientType) => Promise<T>} command
 * @returns {Promise<T | undefined>}
 */
async function onRedis(what, command) {
  const s = shared()
  if (!s) return undefined
  if (s.state === 'connecting') await Promise.race([s.firstConnect, delay(FIRST_CONNECT_WAIT_MS)])
  if (!s.client.isReady || Date.now() < s.pausedUntil) return undefined
  try {
    return await withinTimeout(command(s.client))
  } catch (error) {
    if (error instanceof RedisTimeout) s.pausedUntil = Date.now() + PAUSE_AFTER_TIMEOUT_MS
    if (s.error !== describe(error))
      console.error(`shared cache: could not ${what}: ${describe(error)}`)
    s.error = describe(error)
    return undefined
  }
}

/**
 * Copies the purges other nodes recorded in Redis for `tags` into this node's tags manifest, so
 * that Next's own checks (stale, expired) see them too. The later call wins, as in Next's own
 * manifest; `at` is when it was made (nodes' clocks are compared: keep them in sync).
 * @param {string[]} tags
 */
async function readPurges(tags) {
  if (tags.length === 0) return
  const purges = await onRedis('read tag purges', (client) => client.hmGet(TAGS_KEY, tags))
  purges?.forEach((purge, i) => {
    if (purge == null) return
    const theirs = JSON.parse(purge.toString())
    if ((theirs.at ?? 0) > (tagsManifest.get(tags[i])?.at ?? 0)) tagsManifest.set(tags[i], theirs)
  })
}

/**
 * Records purges in Redis unless a later one of the same tag is there already (the later call
 * wins, as in Next's own manifest); atomic, so that nodes that replay purges at once keep the
 * latest. KEYS[1]: the tags hash; ARGV: tag, manifest entry (JSON), its `at`; tag, entry, at; …
 */
const RECORD_PURGES = `
for i = 1, #ARGV, 3 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if not current or (cjson.decode(current).at or 0) < tonumber(ARGV[i + 2]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
return 1`

/**
 * Writes this node's purges of the tags not yet in Redis. While Redis is away they wait here,
 * and are written when it returns.
 * @param {Shared} s
 */
async function recordUnrecordedTags(s) {
  const tags = [...s.unrecordedTags]
  if (tags.length === 0) return
  const args = tags.flatMap((tag) => {
    const entry = tagsManifest.get(tag) ?? {}
    return [tag, JSON.stringify(entry), String(entry.at ?? 0)]
  })
  const done = await onRedis('record tag purges', (client) =>
    client.eval(RECORD_PURGES, { keys: [TAGS_KEY], arguments: args }),
  )
  if (done === undefined) {
    console.warn(
      `shared cache: purge of ${tags.join(', ')} kept on this node; other nodes get it when ` +
        'Redis returns.',
    )
    return
  }
  for (const tag of tags) s.unrecordedTags.delete(tag)
}

/**
 * The tags an entry answers to: a page's or route's from the header Next stores them in; a
 * fetch's from its own and its page's (soft) tags.
 * @param {{ value?: { kind?: string, headers?: Record<string, unknown>, tags?: string[] } | null,
 *   tags?: string[] }} entry
 * @param {{ kind: string, tags?: string[], softTags?: string[] }} context
 * @returns {string[]}
 */
export function entryTags(entry, context) {
  if (context.kind === 'FETCH') {
    return [
      ...new Set([
        ...(context.tags ?? []),
        ...(context.softTags ?? []),
        ...(entry.tags ?? entry.value?.tags ?? []),
      ]),
    ]
  }
  const header = entry.value?.headers?.[CACHE_TAGS_HEADER]
  return typeof header === 'string' && header !== '' ? header.split(',') : []
}

/** @param {string} serverDistDir */
function buildId(serverDistDir) {
  try {
    return readFileSync(path.join(serverDistDir, '..', 'BUILD_ID'), 'utf8').trim()
  } catch {
    return 'unbuilt'
  }
}

/** @param {string} url */
function redact(url) {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'REDIS_URL'
  }
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? error.message || error.name : String(error)
}

class RedisTimeout extends Error {
  constructor() {
    super(`no answer within ${COMMAND_TIMEOUT_MS} ms`)
    this.name = 'RedisTimeout'
  }
}

/**
 * The command's answer, or a RedisTimeout after COMMAND_TIMEOUT_MS. By hand: the client's own
 * `timeout` covers only commands not yet sent, and a Redis that hangs has received them.
 * @template T
 * @param {Promise<T>} answer
 * @returns {Promise<T>}
 */
function withinTimeout(answer) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeout()), COMMAND_TIMEOUT_MS)
  })
  // A late answer, or a late failure, is dropped.
  answer.catch(() => {})
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer))
}

/** @param {number} ms */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
