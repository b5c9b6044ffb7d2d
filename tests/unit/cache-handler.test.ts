import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@redis/client'
import { nodeFs } from 'next/dist/server/lib/node-fs-methods'
import { tagsManifest } from 'next/dist/server/lib/incremental-cache/tags-manifest.external'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import SharedCacheHandler, {
  TAGS_KEY,
  cacheStatus,
  closeSharedCache,
} from '../../server/cache-handler.mjs'
import { startRedis, type RedisServer } from '../fixtures/redis-server'

/**
 * The shared cache handler against a real redis-server on a free loopback port. Each "node" is a
 * handler over a build folder of its own (its own local cache). They share this process's tags
 * manifest, so a test that needs a node that has not heard of a purge empties the manifest first,
 * as a second process would have it.
 */

let redis: RedisServer
const folders: string[] = []

beforeAll(async () => {
  redis = await startRedis()
  process.env.REDIS_URL = redis.url
})
afterEach(() => {
  tagsManifest.clear()
  vi.restoreAllMocks()
})
afterAll(async () => {
  await closeSharedCache()
  delete process.env.REDIS_URL
  await redis?.stop()
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/** A node: a handler over a build folder of its own, as Next creates one on every request. */
function node(buildId = 'build-1') {
  const dist = mkdtempSync(path.join(tmpdir(), 'facet-cache-node-'))
  folders.push(dist)
  mkdirSync(path.join(dist, 'server'), { recursive: true })
  writeFileSync(path.join(dist, 'BUILD_ID'), buildId)
  return new SharedCacheHandler({
    fs: nodeFs,
    serverDistDir: path.join(dist, 'server'),
    flushToDisk: true,
    // No memory tier: it is shared by every handler in a process, and would hide Redis here.
    maxMemoryCacheSize: 0,
    revalidatedTags: [],
    dev: false,
  })
}

let pages = 0
/** A page as Next stores it (app router), tagged like the site's pages. */
function page(html: string) {
  return {
    key: `/en-us/page-${++pages}`,
    value: {
      kind: 'APP_PAGE',
      html,
      rscData: Buffer.from(`rsc of ${html}`),
      headers: { 'x-next-cache-tags': '_N_T_/layout,_N_T_/[lang]/layout,prismic' },
      postponed: undefined,
      status: 200,
      segmentData: new Map([['/_tree', Buffer.from(`tree of ${html}`)]]),
    },
    set: { cacheControl: { revalidate: false, expire: undefined }, isFallback: false },
    get: { kind: 'APP_PAGE', isFallback: false, isRoutePPREnabled: false },
  }
}

/** A fetch cache entry, tagged `prismic` like every content request. */
function fetched(body: string) {
  const url = `http://127.0.0.1:1/api/v2/documents/search?q=${++pages}`
  const tags = ['prismic']
  return {
    key: `fetch-${pages}`,
    value: {
      kind: 'FETCH',
      data: { headers: {}, body: Buffer.from(body).toString('base64'), status: 200, url },
      revalidate: 31536000,
    },
    set: { fetchCache: true, tags, fetchUrl: url, fetchIdx: 0 },
    get: { kind: 'FETCH', tags, softTags: ['_N_T_/layout'], fetchUrl: url, fetchIdx: 0 },
  }
}

async function purgedInRedis(tag: string): Promise<boolean> {
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    return (await client.hGet(TAGS_KEY, tag)) != null
  } finally {
    await client.close()
  }
}

/** How many reads (GET, HMGET) Redis has answered so far. */
async function readCommands(): Promise<number> {
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    const stats = await client.info('commandstats')
    const calls = (name: string) =>
      Number(stats.match(new RegExp(`cmdstat_${name}:calls=(\\d+)`))?.[1] ?? 0)
    return calls('get') + calls('hmget')
  } finally {
    await client.close()
  }
}

async function until(condition: () => boolean | Promise<boolean>) {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error('not yet')
    },
    { timeout: 10_000, interval: 50 },
  )
}

describe('the shared cache handler', () => {
  it('serves a page that one node rendered to another node, Buffers and segments intact', async () => {
    const [a, b] = [node(), node()]
    const entry = page('<h1>From node A</h1>')
    expect(await b.get(entry.key, entry.get)).toBeNull()

    await a.set(entry.key, entry.value, entry.set)
    const onB = await b.get(entry.key, entry.get)
    expect(onB?.value).toEqual(entry.value)
    expect(Buffer.isBuffer((onB?.value as { rscData: unknown }).rscData)).toBe(true)
    expect(cacheStatus()).toMatchObject({ shared: true, redis: 'ready' })
  })

  it('shares the fetch cache, and a purge on one node hides older entries on every node', async () => {
    const [a, b] = [node(), node()]
    const page1 = page('<h1>Before</h1>')
    const fetch1 = fetched('{"title":"Before"}')
    await a.set(page1.key, page1.value, page1.set)
    await a.set(fetch1.key, fetch1.value, fetch1.set)
    expect((await b.get(fetch1.key, fetch1.get))?.value).toEqual(fetch1.value)

    // The webhook on node A: `revalidateTag('prismic', { expire: 0 })`.
    await new Promise((resolve) => setTimeout(resolve, 5))
    await a.revalidateTag(['prismic'], { expire: 0 })
    expect(await purgedInRedis('prismic')).toBe(true)

    // Node B's process has not heard of it: it learns it from Redis.
    tagsManifest.clear()
    expect(await b.get(page1.key, page1.get)).toBeNull()
    expect(await b.get(fetch1.key, fetch1.get)).toBeNull()

    // What a node renders after the purge is served everywhere.
    const after = { ...page('<h1>After</h1>'), key: page1.key }
    await new Promise((resolve) => setTimeout(resolve, 5))
    await b.set(after.key, after.value, after.set)
    tagsManifest.clear()
    expect((await a.get(after.key, after.get))?.value).toEqual(after.value)
  })

  it('keeps the later of two purges of a tag, whichever node records it last', async () => {
    const later = {
      stale: Date.now() + 60_000,
      expired: Date.now() + 60_000,
      at: Date.now() + 60_000,
    }
    const client = createClient({ url: redis.url })
    await client.connect()
    try {
      await client.hSet(TAGS_KEY, 'navigation', JSON.stringify(later))
      await node().revalidateTag('navigation', { expire: 0 })
      expect(JSON.parse((await client.hGet(TAGS_KEY, 'navigation'))!)).toEqual(later)
      await node().revalidateTag('settings', { expire: 0 })
      expect(JSON.parse((await client.hGet(TAGS_KEY, 'settings'))!)).toEqual(
        tagsManifest.get('settings'),
      )
    } finally {
      await client.close()
    }
  })

  it('never serves one build’s entries to another build', async () => {
    const entry = page('<h1>Build 1</h1>')
    await node('build-1').set(entry.key, entry.value, entry.set)
    expect(await node('build-2').get(entry.key, entry.get)).toBeNull()
    expect((await node('build-1').get(entry.key, entry.get))?.value).toEqual(entry.value)
  })

  it('keeps serving from the node’s own cache while Redis is down, logs it, and shares again when it returns', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {})
    const [a, b] = [node(), node()]
    const before = page('<h1>Cached before the outage</h1>')
    await a.set(before.key, before.value, before.set)
    await a.revalidateTag('journal', { expire: 0 })

    await redis.stop()
    await until(() => cacheStatus().shared && (cacheStatus() as { redis: string }).redis === 'down')
    expect(errors.mock.calls.flat().join('\n')).toMatch(/Redis at redis:\/\/.* is unreachable/)

    // Node A answers from its own copy; a new render is kept there; a purge is kept for later.
    expect((await a.get(before.key, before.get))?.value).toEqual(before.value)
    const during = page('<h1>Rendered during the outage</h1>')
    await a.set(during.key, during.value, during.set)
    expect((await a.get(during.key, during.get))?.value).toEqual(during.value)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await a.revalidateTag('prismic', { expire: 0 })
    expect(warnings.mock.calls.flat().join('\n')).toMatch(/purge of prismic kept on this node/)
    expect(await a.get(before.key, before.get)).toBeNull()

    // Redis returns (empty): the purge made during the outage reaches it, and sharing resumes.
    await redis.start()
    await until(() => (cacheStatus() as { redis: string }).redis === 'ready')
    expect(logs.mock.calls.flat().join('\n')).toMatch(/is back/)
    await until(() => purgedInRedis('prismic'))
    // It restarted empty: the purges this node knew from before are written back too.
    await until(() => purgedInRedis('journal'))
    const back = page('<h1>After the outage</h1>')
    await a.set(back.key, back.value, back.set)
    expect((await b.get(back.key, back.get))?.value).toEqual(back.value)
  }, 30_000)
})

describe('a Redis that stops answering', () => {
  it('answers from the node’s own cache after a second, then leaves Redis alone a while', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const [a, b] = [node(), node()]
    const entry = page('<h1>Cached before Redis hung</h1>')
    await a.set(entry.key, entry.value, entry.set)
    const before = await readCommands()
    redis.pause()
    try {
      expect((await a.get(entry.key, entry.get))?.value).toEqual(entry.value)
      expect(errors.mock.calls.flat().join('\n')).toMatch(/could not read a cache entry/)
      expect((await a.get(entry.key, entry.get))?.value).toEqual(entry.value)
    } finally {
      redis.resume()
    }
    // Redis got the first read only: the second request did not wait on it again.
    await until(async () => (await readCommands()) > before)
    expect(await readCommands()).toBe(before + 1)
    // Once it answers again, sharing resumes.
    const later = page('<h1>After Redis answered again</h1>')
    await until(async () => {
      await a.set(later.key, later.value, later.set)
      return (await b.get(later.key, later.get)) != null
    })
  }, 30_000)
})

describe('without REDIS_URL', () => {
  it('reports an unshared cache, and the handler is Next’s own file cache', async () => {
    const url = process.env.REDIS_URL
    await closeSharedCache()
    delete process.env.REDIS_URL
    try {
      expect(cacheStatus()).toEqual({ shared: false })
      const [a, b] = [node(), node()]
      const entry = page('<h1>Local only</h1>')
      await a.set(entry.key, entry.value, entry.set)
      expect((await a.get(entry.key, entry.get))?.value).toEqual(entry.value)
      expect(await b.get(entry.key, entry.get)).toBeNull()
    } finally {
      process.env.REDIS_URL = url
    }
  })
})
