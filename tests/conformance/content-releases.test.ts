import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixture, type Fixture } from '../fixtures/content-builder'
import { serveContentApi, type Served } from './helpers'

/**
 * Releases kept in `releases/<id>/documents/` and previews of them, as the official client sees
 * them: each release is a ref in `/api/v2`, queried with `ref=` like the master, and a preview
 * token as Prismic issues them (a URL under `/previews/`, alone or in the toolbar's JSON cookie)
 * answers with the release's content.
 */

let fixture: Fixture
let served: Served
let client: prismic.Client<prismic.PrismicDocument>
const routes = [{ type: 'article', path: '/:lang/articles/:uid' }]

function write(file: string, value: unknown): void {
  mkdirSync(path.dirname(path.join(fixture.dir, file)), { recursive: true })
  writeFileSync(path.join(fixture.dir, file), JSON.stringify(value))
}

beforeAll(async () => {
  fixture = buildFixture(mkdtempSync(path.join(tmpdir(), 'facet-releases-')), {
    count: 8,
    seed: 17,
  })
  const published = JSON.parse(
    readFileSync(path.join(fixture.dir, 'documents/article/kitchen-sink/en-us.json'), 'utf8'),
  ) as { data: Record<string, unknown> }
  write('releases/spring/release.json', { label: 'Spring launch' })
  write('releases/spring/documents/article/kitchen-sink/en-us.json', {
    ...published,
    data: { ...published.data, summary: 'A draft summary' },
  })
  write('releases/spring/documents/article/draft-only/en-us.json', {
    uid: 'draft-only',
    data: { summary: 'Never published' },
  })
  write('releases/autumn/documents/article/empty/en-us.json', {
    uid: 'empty',
    data: { summary: 'Autumn words' },
  })
  served = await serveContentApi({ contentDir: fixture.dir, modelsDir: fixture.dir })
  client = prismic.createClient<prismic.PrismicDocument>(served.endpoint, { routes })
})

afterAll(async () => {
  await served?.close()
  if (fixture) rmSync(fixture.dir, { recursive: true, force: true })
})

const token = (release: string) =>
  `${served.origin}/previews/${release}?websitePreviewId=${release}`

describe('releases', () => {
  it('lists each release as a ref that is not the master, with its id and label', async () => {
    const refs = await client.getRefs()
    expect(refs.map(({ id, label, isMasterRef }) => ({ id, label, isMasterRef }))).toEqual([
      { id: 'master', label: 'Master', isMasterRef: true },
      { id: 'autumn', label: 'Autumn', isMasterRef: false },
      { id: 'spring', label: 'Spring launch', isMasterRef: false },
    ])
    expect(new Set(refs.map((r) => r.ref)).size).toBe(3)
  })

  it('answers ref= a release with its documents added and replaced, and the master without them', async () => {
    const spring = await client.getReleaseByID('spring')
    const draft = await client.getByUID('article', 'kitchen-sink', { ref: spring.ref })
    expect(draft.data.summary).toBe('A draft summary')
    expect(draft.data.title[0].text).toBe('Every Field Kind')
    expect((await client.getByUID('article', 'draft-only', { ref: spring.ref })).data.summary).toBe(
      'Never published',
    )
    expect((await client.getByUID('article', 'kitchen-sink')).data.summary).toBe(
      'A zyxquux sample with every field',
    )
    expect(await client.getByUID('article', 'draft-only').catch((e: unknown) => e)).toBeInstanceOf(
      prismic.NotFoundError,
    )
    const autumn = await client.getByUID('article', 'empty', {
      ref: (await client.getReleaseByLabel('Autumn')).ref,
    })
    expect(autumn.data.summary).toBe('Autumn words')
    // The client's own release modes reach the same content.
    const byLabel = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
    byLabel.queryContentFromReleaseByLabel('Spring launch')
    expect((await byLabel.getByUID('article', 'kitchen-sink')).data.summary).toBe('A draft summary')
  })
})

describe('previews', () => {
  it('resolves the previewed document’s URL from a preview token, as @prismicio/next does', async () => {
    const published = await client.getByUID('article', 'kitchen-sink')
    const url = await client.resolvePreviewURL({
      documentID: published.id,
      previewToken: token('spring'),
      defaultURL: '/',
    })
    expect(url).toBe('/en-us/articles/kitchen-sink')
  })

  it('answers a preview token, alone or in the toolbar’s cookie, with the release’s content', async () => {
    const previewing = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
    previewing.queryContentFromRef(token('spring'))
    expect((await previewing.getByUID('article', 'kitchen-sink')).data.summary).toBe(
      'A draft summary',
    )
    const cookie = encodeURIComponent(
      JSON.stringify({
        _tracker: 'x',
        [new URL(served.origin).host]: { preview: token('spring') },
      }),
    )
    const fromCookie = await client.getByUID('article', 'kitchen-sink', { ref: cookie })
    expect(fromCookie.data.summary).toBe('A draft summary')
  })

  it('raises PreviewTokenExpiredError for a token of no release', async () => {
    const error = await client
      .getByUID('article', 'kitchen-sink', { ref: token('winter') })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(prismic.PreviewTokenExpiredError)
    expect((error as prismic.PreviewTokenExpiredError).response).toMatchObject({
      type: 'api_security_error',
      message: 'This preview token has expired',
      oauth_initiate: expect.any(String),
      oauth_token: expect.any(String),
    })
  })

  it('sends a browser that opens a preview token on to the site’s preview route', async () => {
    const published = await client.getByUID('article', 'kitchen-sink')
    const opened = await fetch(`${token('spring')}&documentId=${published.id}`, {
      redirect: 'manual',
    })
    expect(opened.status).toBe(302)
    // A path, so the browser stays on the origin it came by.
    const location = opened.headers.get('location')!
    expect(location).toMatch(/^\/api\/preview\?/)
    const target = new URL(location, served.origin)
    expect(target.searchParams.get('token')).toBe(token('spring'))
    expect(target.searchParams.get('documentId')).toBe(published.id)
    expect((await fetch(token('winter'), { redirect: 'manual' })).status).toBe(404)
  })
})

describe('content:check', () => {
  it('checks the documents of every release against the models', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-release-check-'))
    try {
      buildFixture(dir, { count: 4, seed: 3 })
      const file = 'releases/next/documents/article/empty/en-us.json'
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      writeFileSync(
        path.join(dir, file),
        JSON.stringify({ uid: 'empty', data: { rating: 'high' } }),
      )
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'services/content-api/check-cli.ts', '--content', dir],
        { encoding: 'utf8' },
      )
      expect(run.status).toBe(1)
      expect(run.stderr).toContain(`${file} $.data.rating: is a Number field`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
