import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { freePort } from '../conformance/helpers'
import { generateScaleContent } from '../fixtures/scale-content'

/**
 * A node started on a repository of thousands of documents (generated from the models, none of
 * them in the build) is ready only once warm: `/readyz` answers 503 while it loads the content
 * store and the route index, then 200; the first page after that, one the build never
 * prerendered, is rendered without loading either again (the load counts `/readyz` shows stay
 * at one each).
 */

const DIST = process.env.NEXT_DIST_DIR || '.next'
const DOCUMENTS = 4000
const WORK = path.join('.data', 'warm-start')

type Readiness = {
  status: string
  checks: Record<string, string>
  warm: { status: string; loads?: { content: number; routeIndex: number } }
}

let server: ChildProcess
let output = ''
let origin: string
let contentDir: string
const probes: { status: number; body: Readiness }[] = []

/** The oldest post of the master language: the last any bounded prerender would reach. */
function oldestPost(): { uid: string; title: string } {
  const dir = path.join(contentDir, 'documents', 'post')
  const posts = readdirSync(dir).map((key) => {
    const doc = JSON.parse(readFileSync(path.join(dir, key, 'en-us.json'), 'utf8'))
    return { uid: doc.uid as string, title: doc.data.title as string, date: doc.data.date ?? '' }
  })
  posts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return posts.find((p) => typeof p.title === 'string' && p.title) ?? posts[0]!
}

async function readiness(): Promise<{ status: number; body: Readiness }> {
  const response = await fetch(`${origin}/readyz`)
  return { status: response.status, body: (await response.json()) as Readiness }
}

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true })
  contentDir = path.resolve(WORK, 'content')
  generateScaleContent(process.cwd(), contentDir, DOCUMENTS)
  // The node's own copy of the build: what it renders on demand is kept there, not in `.next`.
  const dist = path.join(WORK, 'dist')
  cpSync(DIST, dist, {
    recursive: true,
    filter: (file) =>
      !/^(cache|server[/\\]route-cache|facet-serving)([/\\]|$)/.test(path.relative(DIST, file)),
  })
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, ['server/index.mjs'], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_DIST_DIR: dist,
      CONTENT_DIR: contentDir,
      PORT: String(port),
      LISTEN_HOST: '127.0.0.1',
      SITE_URL: origin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stdout!.on('data', (chunk) => (output += chunk))
  server.stderr!.on('data', (chunk) => (output += chunk))
  // Every probe from the moment the port opens until the first 200.
  await vi.waitFor(
    async () => {
      if (server.exitCode !== null) throw new Error(`server exited:\n${output}`)
      const probe = await readiness()
      probes.push(probe)
      expect(probe.status).toBe(200)
    },
    { timeout: 120_000, interval: 5 },
  )
})

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  rmSync(WORK, { recursive: true, force: true })
})

describe(`a node over ${DOCUMENTS} documents`, () => {
  it('answers /readyz 503 while it warms up, then 200 once the content and routes are loaded', () => {
    const first200 = probes.findIndex((p) => p.status === 200)
    const before = probes.slice(0, first200)
    expect(before.length).toBeGreaterThan(0)
    for (const probe of before) {
      expect(probe.status).toBe(503)
      expect(probe.body.checks.warm).not.toBe('ok')
    }
    const ready = probes[first200]!.body
    expect(ready.checks.warm).toBe('ok')
    expect(ready.warm).toMatchObject({ status: 'warm', loads: { content: 1, routeIndex: 1 } })
  })

  it('serves its first page after ready, one the build never prerendered, without loading again', async () => {
    const post = oldestPost()
    const response = await fetch(`${origin}/en-us/journal/${post.uid}`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toMatch(/<h1[^>]*>([^<]*)<\/h1>/)
    expect(html.match(/<h1[^>]*>([^<]*)<\/h1>/)![1]).toBe(
      post.title.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
    )
    const after = await readiness()
    expect(after.status).toBe(200)
    expect(after.body.warm.loads).toEqual({ content: 1, routeIndex: 1 })
  })

  it('keeps that page: the next visitor gets the same rendering', async () => {
    const post = oldestPost()
    const first = await fetch(`${origin}/en-us/journal/${post.uid}`)
    const again = await fetch(`${origin}/en-us/journal/${post.uid}`)
    expect(again.status).toBe(200)
    expect(again.headers.get('cache-control')).toMatch(/s-maxage=/)
    expect(await again.text()).toBe(await first.text())
  })
})
