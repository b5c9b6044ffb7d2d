import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { KEY_PREFIX } from '../../server/cache-handler.mjs'
import { freePort, started } from '../conformance/helpers'
import { startRedis, type RedisServer } from '../fixtures/redis-server'

/**
 * Two nodes of the production server on one build, sharing one Redis, as behind a load balancer.
 * The build is the one `npm test` makes before the end-to-end tests. Their content comes from the
 * standalone content API (watching a copy of content/, the documents that build was made from),
 * as from Prismic: an edit moves its master ref, and the webhook makes it live.
 */

const DIST = process.env.NEXT_DIST_DIR || '.next'
const SERVER = 'server/index.mjs'
const SECRET = 'facet-nodes-webhook-secret'
const PAGE = { file: 'documents/page/about/en-us.json', path: '/en-us/about' }

type Proc = { child: ChildProcess; output: () => string; stop: () => Promise<void> }
type Node = Proc & { origin: string }

let redis: RedisServer
let contentDir: string
let contentApi: Proc
let contentApiPort: number
let a: Node
let b: Node

function start(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

async function waitFor<T>(check: () => Promise<T>, timeout = 60_000): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 100 })
}

/**
 * A node's own copy of the build, as on a machine of its own: Next's file cache, this handler's
 * local tier, lives in it. Left out: what servers added to the build after it was made.
 */
function copyOfBuild(name: string): string {
  const copy = path.join('.data', 'nodes', name)
  rmSync(copy, { recursive: true, force: true })
  cpSync(DIST, copy, {
    recursive: true,
    filter: (file) =>
      !/^(cache|server[/\\]route-cache|facet-serving)([/\\]|$)/.test(path.relative(DIST, file)),
  })
  return copy
}

async function startNode(name: string, siteUrl?: string): Promise<Node> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const node = start([SERVER], {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_DIST_DIR: copyOfBuild(name),
    PORT: String(port),
    LISTEN_HOST: '127.0.0.1',
    SITE_URL: siteUrl ?? origin,
    PRISMIC_REPOSITORY: `http://127.0.0.1:${contentApiPort}/api/v2`,
    PRISMIC_WEBHOOK_SECRET: SECRET,
    REDIS_URL: redis.url,
    OUTBOX_DIR: path.join(contentDir, '.outbox'),
  })
  await waitFor(async () => {
    if (node.child.exitCode !== null) throw new Error(`${SERVER} exited:\n${node.output()}`)
    expect((await fetch(`${origin}/robots.txt`)).status).toBe(200)
  })
  return { ...node, origin }
}

/** The page as a visitor gets it from one node. */
async function visit(node: Node) {
  const response = await fetch(`${node.origin}${PAGE.path}`)
  return {
    status: response.status,
    cache: response.headers.get('x-nextjs-cache'),
    html: await response.text(),
  }
}

/** Edits the page's title in the content folder, and waits for the API's master ref to move. */
async function retitle(title: string) {
  const endpoint = `http://127.0.0.1:${contentApiPort}/api/v2`
  const ref = async () => {
    const repository = (await (await fetch(endpoint)).json()) as {
      refs: { isMasterRef: boolean; ref: string }[]
    }
    return repository.refs.find((r) => r.isMasterRef)!.ref
  }
  const before = await ref()
  const file = path.join(contentDir, PAGE.file)
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  doc.data.title = title
  writeFileSync(file, JSON.stringify(doc, null, 2))
  await waitFor(async () => expect(await ref()).not.toBe(before))
}

/** Prismic's webhook, as Prismic sends it on publish. */
async function webhook(node: Node) {
  const response = await fetch(`${node.origin}/api/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'api-update', secret: SECRET }),
  })
  expect(response.status).toBe(200)
}

/** Whether Redis holds a rendering of the page (for the build the nodes run). */
async function pageInRedis(): Promise<boolean> {
  const buildId = readFileSync(path.join(DIST, 'BUILD_ID'), 'utf8').trim()
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    const keys = await client.keys(`${KEY_PREFIX}${buildId}:*${PAGE.path}`)
    return keys.length > 0
  } finally {
    await client.close()
  }
}

beforeAll(async () => {
  if (!existsSync(path.join(DIST, 'BUILD_ID'))) {
    throw new Error(`No production build in ${DIST}: npm test builds it before this suite.`)
  }
  redis = await startRedis()
  contentDir = mkdtempSync(path.join(tmpdir(), 'facet-nodes-'))
  cpSync('content', contentDir, { recursive: true })
  contentApiPort = await freePort()
  contentApi = start(
    [
      '--import',
      'tsx',
      'services/content-api/cli.ts',
      '--port',
      String(contentApiPort),
      '--content',
      contentDir,
      '--models',
      '.',
      '--watch',
    ],
    { ...process.env, NODE_ENV: 'development' },
  )
  await started(contentApi.child)
  a = await startNode('a')
  // Behind one load balancer, every node has the same public origin.
  b = await startNode('b', a.origin)
})

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), contentApi?.stop()])
  await redis?.stop()
  if (contentDir) rmSync(contentDir, { recursive: true, force: true })
  rmSync(path.join('.data', 'nodes'), { recursive: true, force: true })
})

describe('two nodes sharing one Redis', () => {
  it('the webhook on node A makes node B serve the change, and node A serves node B’s rendering', async () => {
    const original = JSON.parse(readFileSync(path.join('content', PAGE.file), 'utf8')).data.title
    for (const node of [a, b]) {
      const page = await visit(node)
      expect(page.status).toBe(200)
      expect(page.html).toContain(original)
    }

    const changed = `Shared across nodes ${Date.now()}`
    await retitle(changed)
    // Published, but nothing purged yet: node B still serves the page it has.
    expect((await visit(b)).html).toContain(original)

    await webhook(a)
    await waitFor(async () => expect((await visit(b)).html).toContain(changed), 30_000)

    // Node A never rendered the new page: it serves node B's, from Redis.
    await waitFor(async () => expect(await pageInRedis()).toBe(true), 30_000)
    const onA = await visit(a)
    expect(onA.html).toContain(changed)
    expect(onA.cache).toBe('HIT')
  })

  it('with Redis down, both nodes keep serving and log it; when it returns, a purge made meanwhile reaches the other node', async () => {
    await redis.stop()
    for (const node of [a, b]) {
      await waitFor(async () => expect(node.output()).toMatch(/Redis at .* is unreachable/))
      const page = await visit(node)
      expect(page.status).toBe(200)
      expect(page.html).toContain('Shared across nodes')
    }

    // Published during the outage: the webhook on node B purges node B at once.
    const changed = `Published during the outage ${Date.now()}`
    await retitle(changed)
    await webhook(b)
    await waitFor(async () => expect((await visit(b)).html).toContain(changed), 30_000)
    // Node A has not heard of it yet, and serves what it had.
    const onA = await visit(a)
    expect(onA.status).toBe(200)
    expect(onA.html).toContain('Shared across nodes')

    // Redis returns, empty: node B records the purge it kept, and node A serves the change.
    await redis.start()
    for (const node of [a, b]) {
      await waitFor(async () => expect(node.output()).toMatch(/Redis at .* is back/), 30_000)
    }
    await waitFor(async () => expect((await visit(a)).html).toContain(changed), 30_000)

    // Sharing works again: the webhook on node A reaches node B.
    const again = `Shared again ${Date.now()}`
    await retitle(again)
    await webhook(a)
    await waitFor(async () => expect((await visit(b)).html).toContain(again), 30_000)
  })
})
