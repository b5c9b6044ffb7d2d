import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { describe, expect, it } from 'vitest'
import { createContentApi } from '@services/content-api/app'
import { loadContent } from '@services/content-api/store'
import { listFiles } from '@services/content-api/write/files'
import { validateContent } from '@services/content-api/validate'
import { PrismicSyncError } from '../../scripts/prismic/errors'
import { pullRepository } from '../../scripts/prismic/pull'
import { pushRepository, type PushOptions } from '../../scripts/prismic/push'
import { serveWritableRepository, type WritableRepository } from './prismic-write-helpers'

/**
 * `prismic:push` and `prismic:pull` against the writable stand-ins, over real sockets. The round
 * trip compares what the site's Prismic client reads from both repositories, document by
 * document, up to ids and publication dates (which the repository sets when it publishes);
 * building the whole site a third time would cost CI minutes for the same comparison.
 */

function tempDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `facet-${name}-`))
}

/** A content folder with one page per language, plus whatever `extra` files say. */
function contentFolder(extra: Record<string, unknown> = {}, langs = ['en-us']): string {
  const dir = tempDir('content')
  const files: Record<string, unknown> = {
    'repository.json': {
      languages: langs.map((id, i) => ({ id, ...(i === 0 ? { master: true } : {}) })),
    },
    ...Object.fromEntries(
      langs.map((lang) => [
        `documents/page/hello/${lang}.json`,
        { uid: `hello-${lang}`, data: { title: `Hello ${lang}` } },
      ]),
    ),
    ...extra,
  }
  for (const [rel, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    writeFileSync(path.join(dir, rel), JSON.stringify(value))
  }
  return dir
}

async function push(repo: WritableRepository, contentDir: string, more: Partial<PushOptions> = {}) {
  const lines: string[] = []
  const summary = await pushRepository({
    repository: repo.endpoint,
    writeToken: 'secret',
    contentDir,
    modelsDir: '.',
    stateFile: path.join(contentDir, '..', `${path.basename(contentDir)}-state.json`),
    log: (line) => lines.push(line),
    ...more,
  })
  return { summary, lines }
}

function reader(repo: WritableRepository) {
  return prismic.createClient('local', { documentAPIEndpoint: repo.endpoint })
}

/** What a visitor's page is built from, with ids, dates and origins taken out. */
function comparable(docs: prismic.PrismicDocument[]) {
  const identity = new Map(docs.map((d) => [d.id, `${d.type}/${d.uid ?? d.type}/${d.lang}`]))
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string')
      return identity.get(value) ?? value.replace(/^https?:\/\/[^/]+\/media\//, 'media/')
    if (Array.isArray(value)) return value.map(strip)
    if (!value || typeof value !== 'object') return value
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !['href', 'first_publication_date', 'last_publication_date'].includes(k))
        .map(([k, v]) => [k, strip(v)]),
    )
  }
  return Object.fromEntries(docs.map((d) => [identity.get(d.id)!, strip(d)]))
}

async function servedFolder(dir: string, modelsDir = '.') {
  const api = createContentApi({ contentDir: dir, modelsDir })
  const client = prismic.createClient('local', {
    documentAPIEndpoint: 'http://content.test/api/v2',
    fetch: (input, init) => api.fetch(new Request(String(input), init as RequestInit)),
  })
  return client.dangerouslyGetAll({ lang: '*' })
}

describe('prismic:push refuses bad input with a message naming the file', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'an unknown type',
      { 'documents/gallery/one/en-us.json': { data: {} } },
      /documents\/gallery\/one\/en-us\.json \$: .*gallery/,
    ],
    [
      'a broken link',
      {
        'documents/page/links/en-us.json': {
          uid: 'links',
          data: {
            slices: [
              {
                slice_type: 'call_to_action',
                variation: 'default',
                primary: { button_link: { link_type: 'Document', type: 'page', key: 'gone' } },
              },
            ],
          },
        },
      },
      /documents\/page\/links\/en-us\.json \$\.data\.slices\[0\]\.primary\.button_link: links to a document that does not exist/,
    ],
    [
      'a missing media file',
      {
        'documents/page/pictured/en-us.json': {
          uid: 'pictured',
          data: { meta_image: { media: 'images/nope.svg', alt: 'x' } },
        },
      },
      /documents\/page\/pictured\/en-us\.json \$\.data\.meta_image\.media: names a media file that does not exist: media\/images\/nope\.svg/,
    ],
  ]
  for (const [what, extra, message] of cases) {
    it(`names ${what}, and writes nothing`, async () => {
      const repo = await serveWritableRepository()
      try {
        const error = await push(repo, contentFolder(extra)).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(PrismicSyncError)
        expect((error as Error).message).toMatch(message)
        expect((error as Error).message).toMatch(/^Nothing was pushed/)
        expect(listFiles(repo.dir)).toEqual(['repository.json'])
      } finally {
        await repo.close()
      }
    })
  }

  it('names the write token when the repository refuses it', async () => {
    const repo = await serveWritableRepository({ writeToken: 'right' })
    try {
      await expect(push(repo, contentFolder(), { writeToken: 'wrong' })).rejects.toThrow(
        /the token was refused.*check PRISMIC_WRITE_TOKEN/,
      )
      expect(listFiles(repo.dir)).toEqual(['repository.json'])
    } finally {
      await repo.close()
    }
  })
})

describe('prismic:push --dry-run', () => {
  it('prints what it would create and writes nothing', async () => {
    const repo = await serveWritableRepository()
    try {
      const { summary, lines } = await push(repo, contentFolder(), { dryRun: true })
      const output = lines.join('\n')
      expect(output).toMatch(/would create custom type page \(customtypes\/page\/index\.json\)/)
      expect(output).toMatch(/would create documents\/page\/hello\/en-us\.json/)
      expect(output).toMatch(/Dry run, nothing written\. Models: 20 to create/)
      expect(summary.documents).toEqual({ created: 1, updated: 0, unchanged: 0 })
      expect(listFiles(repo.dir)).toEqual(['repository.json'])
    } finally {
      await repo.close()
    }
  })
})

describe('prismic:push record', () => {
  it('starts over when the repository no longer has what the record names', async () => {
    const content = contentFolder({
      'documents/page/hello/en-us.json': {
        uid: 'hello-en-us',
        data: { title: 'Hello', meta_image: { media: 'images/og.svg', alt: 'A square' } },
      },
    })
    mkdirSync(path.join(content, 'media/images'), { recursive: true })
    writeFileSync(
      path.join(content, 'media/images/og.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>',
    )
    const first = await serveWritableRepository()
    const second = await serveWritableRepository()
    try {
      await push(first, content)
      const { summary, lines } = await push(second, content, { publish: true })
      expect(lines.join('\n')).toMatch(
        /lacks assets an earlier push recorded: starting from an empty record/,
      )
      expect(summary.documents).toEqual({ created: 1, updated: 0, unchanged: 0 })
      const page = await reader(second).getByUID('page', 'hello-en-us')
      expect(page.data.meta_image).toMatchObject({
        alt: 'A square',
        dimensions: { width: 2, height: 2 },
      })
    } finally {
      await first.close()
      await second.close()
    }
  }, 60_000)
})

describe('prismic:push under the service limits and failures', () => {
  it('waits out 429 answers as the service asks, and says so', async () => {
    const repo = await serveWritableRepository({ rateLimit: 4, retryAfter: 0.2 })
    try {
      const { summary, lines } = await push(repo, contentFolder(), { publish: true })
      expect(summary.rateLimited).toBeGreaterThan(0)
      expect(lines.join('\n')).toMatch(/rate limited \(429\) by 127\.0\.0\.1:\d+; waiting 0\.2 s/)
      expect((await reader(repo).getByUID('page', 'hello-en-us')).data.title).toBe('Hello en-us')
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('stops on a lasting 429, naming the document, with nothing published', async () => {
    const repo = await serveWritableRepository({
      fault: (request) =>
        request.method === 'POST' && new URL(request.url).pathname === '/migration/documents'
          ? Response.json(
              { message: 'Too many requests' },
              { status: 429, headers: { 'Retry-After': '0' } },
            )
          : undefined,
    })
    try {
      await expect(push(repo, contentFolder(), { publish: true })).rejects.toThrow(
        /documents\/page\/hello\/en-us\.json \(creating\): the service answered 429 Too Many Requests \d+ times in a row to POST/,
      )
      expect(await reader(repo).dangerouslyGetAll({ lang: '*' })).toEqual([])
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('stops on a 5xx naming the document; run again, it finishes without duplicates', async () => {
    let failing = true
    const repo = await serveWritableRepository({
      fault: (request) =>
        failing && request.method === 'PUT'
          ? Response.json({ message: 'Service Unavailable' }, { status: 503 })
          : undefined,
    })
    const content = contentFolder({}, ['en-us', 'fr-fr'])
    try {
      await expect(push(repo, content, { publish: true })).rejects.toThrow(
        /documents\/page\/hello\/en-us\.json \(updating\): Service Unavailable .*\(the service answered 503 PUT http:\/\/127\.0\.0\.1:\d+\/migration\/documents\//,
      )
      expect(await reader(repo).dangerouslyGetAll({ lang: '*' })).toEqual([])
      failing = false
      const { summary } = await push(repo, content, { publish: true })
      expect(summary.documents).toEqual({ created: 0, updated: 2, unchanged: 0 })
      const docs = await reader(repo).dangerouslyGetAll({ lang: '*' })
      expect(docs.map((d) => `${d.uid}/${d.lang}`).sort()).toEqual([
        'hello-en-us/en-us',
        'hello-fr-fr/fr-fr',
      ])
      expect(docs[0]!.alternate_languages).toHaveLength(1)
    } finally {
      await repo.close()
    }
  }, 60_000)
})

describe('prismic:pull', () => {
  it('pulls the models too when given a write token, into a folder that checks on its own', async () => {
    const repo = await serveWritableRepository()
    try {
      await push(repo, contentFolder({}, ['en-us', 'fr-fr']), { publish: true })
      const out = path.join(tempDir('pull'), 'with-models')
      const summary = await pullRepository({
        repository: repo.endpoint,
        out,
        writeToken: 'secret',
        log: () => {},
      })
      expect(summary).toMatchObject({ documents: 2, languages: 2, models: 20 })
      expect(listFiles(out)).toEqual(
        expect.arrayContaining([
          'customtypes/page/index.json',
          'slices/hero/model.json',
          'documents/page/hello-en-us/en-us.json',
          'documents/page/hello-en-us/fr-fr.json',
        ]),
      )
      const store = loadContent(out)
      expect(validateContent(store, out)).toEqual([])
      expect(store.documents[0]!.doc.alternate_languages).toHaveLength(1)
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    const repo = await serveWritableRepository()
    const out = tempDir('pull')
    writeFileSync(path.join(out, 'keep.txt'), 'mine')
    try {
      await expect(
        pullRepository({ repository: repo.endpoint, out, log: () => {} }),
      ).rejects.toThrow(/--out .* is not empty; pull into a new folder/)
      expect(listFiles(out)).toEqual(['keep.txt'])
    } finally {
      await repo.close()
    }
  })
})

describe('prismic:push and prismic:pull with cropped images and thumbnails', () => {
  /** A page model whose images crop: one as written, one to a constraint with a thumbnail. */
  function modelsFolder(): string {
    const dir = tempDir('models')
    const image = (config: Record<string, unknown>) => ({ type: 'Image', config })
    const model = {
      id: 'page',
      label: 'Page',
      repeatable: true,
      status: true,
      json: {
        Main: {
          uid: { type: 'UID', config: { label: 'UID' } },
          title: { type: 'Text', config: { label: 'Title' } },
          cover: image({ label: 'Cover', constraint: {}, thumbnails: [] }),
          meta_image: image({
            label: 'Meta image',
            constraint: { width: 1200, height: 630 },
            thumbnails: [{ name: 'square', width: 400, height: 400 }],
          }),
        },
      },
    }
    mkdirSync(path.join(dir, 'customtypes/page'), { recursive: true })
    writeFileSync(path.join(dir, 'customtypes/page/index.json'), JSON.stringify(model))
    return dir
  }

  const cover = {
    media: 'photos/portrait.jpg',
    alt: 'A stoneware jar',
    crop: { x: 400, y: 0, width: 1600, height: 1600 },
  }

  it('sends each crop in the URL the write client would, stores it as `crop`, and pulls it back as written', async () => {
    const models = modelsFolder()
    const content = contentFolder({
      'documents/page/hello/en-us.json': {
        uid: 'hello',
        data: {
          title: 'Hello',
          cover,
          meta_image: {
            media: 'photos/portrait.jpg',
            alt: 'The jar, wide',
            square: { crop: { x: 0, y: 0, width: 800, height: 800 }, alt: 'The jar, square' },
          },
        },
      },
    })
    mkdirSync(path.join(content, 'media/photos'), { recursive: true })
    writeFileSync(
      path.join(content, 'media/photos/portrait.jpg'),
      readFileSync('content/media/photos/portrait-ines.jpg'),
    )
    const repo = await serveWritableRepository()
    try {
      const { lines } = await push(repo, content, { modelsDir: models, publish: true })
      expect(lines.join('\n')).toMatch(/Media: 1 uploaded, 0 already there\./)

      const pushed = await reader(repo).dangerouslyGetAll({ lang: '*' })
      const original = await servedFolder(content, models)
      expect(comparable(pushed)).toEqual(comparable(original))
      const served = pushed[0]!.data as unknown as Record<string, Record<string, unknown>>
      expect(served.cover).toMatchObject({
        url: expect.stringMatching(
          /\/media\/photos\/portrait\.jpg\?auto=compress,format&rect=400,0,1600,1600&w=1600&h=1600&v=[\w-]{12}$/,
        ),
        dimensions: { width: 1600, height: 1600 },
        alt: 'A stoneware jar',
      })
      expect(served.meta_image!.square).toMatchObject({
        url: expect.stringMatching(
          /\?auto=compress,format&rect=0,0,800,800&w=400&h=400&v=[\w-]{12}$/,
        ),
        alt: 'The jar, square',
      })

      const [stored] = listFiles(path.join(repo.dir, 'documents'))
      const data = JSON.parse(readFileSync(path.join(repo.dir, 'documents', stored!), 'utf8')).data
      expect(data.cover).toEqual(cover)

      const out = path.join(tempDir('pull'), 'pulled')
      await pullRepository({ repository: repo.endpoint, out, writeToken: 'secret', log: () => {} })
      const pulled = JSON.parse(
        readFileSync(path.join(out, 'documents/page/hello/en-us.json'), 'utf8'),
      ).data
      expect(pulled.cover).toEqual(cover)
      // A constraint's centred crop is served in the URL like any other, and pulled as written.
      expect(pulled.meta_image).toEqual({
        media: 'photos/portrait.jpg',
        alt: 'The jar, wide',
        crop: { x: 0, y: 170, width: 2400, height: 1260 },
        square: {
          media: 'photos/portrait.jpg',
          alt: 'The jar, square',
          crop: { x: 0, y: 0, width: 800, height: 800 },
        },
      })
      const store = loadContent(out)
      expect([...store.problems, ...validateContent(store, out)]).toEqual([])
      expect(comparable(await servedFolder(out, out))).toEqual(comparable(original))
      rmSync(path.dirname(out), { recursive: true, force: true })
    } finally {
      await repo.close()
    }
  }, 120_000)
})

describe('prismic:push and prismic:pull with the sample content', () => {
  it(
    'pushes content/ into an empty repository, stopped halfway and run again without duplicates; published, it serves what content/ serves; pulled back, it is content/ again',
    async () => {
      const repo = await serveWritableRepository()
      const state = path.join(tempDir('state'), 'state.json')
      const run = (extra: string[], stopAfter?: number) =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'scripts/prismic/push-cli.ts',
              '--repository',
              repo.endpoint,
              '--state',
              state,
              ...extra,
            ],
            { env: { ...process.env, PRISMIC_WRITE_TOKEN: 'secret' } },
          )
          let output = ''
          const onData = (chunk: Buffer) => {
            output += chunk.toString()
            const created = [...output.matchAll(/creating (\d+) of/g)].at(-1)
            if (stopAfter && created && Number(created[1]) >= stopAfter) child.kill('SIGKILL')
          }
          child.stdout.on('data', onData)
          child.stderr.on('data', onData)
          child.on('exit', (code) => resolve({ code, output }))
        })
      try {
        const stopped = await run([], 26)
        expect(stopped.code).toBe(null)
        expect(await reader(repo).dangerouslyGetAll({ lang: '*' })).toEqual([])

        const again = await run(['--publish'])
        expect(again.output).toMatch(/Published the migration release: 56 document\(s\)\./)
        const [, created, updated] = again.output.match(/Documents: (\d+) created, (\d+) updated/)!
        expect(Number(created) + Number(updated)).toBe(56)
        expect(Number(updated)).toBeGreaterThanOrEqual(25)
        expect(again.output).toMatch(/Media: 0 uploaded, 36 already there\./)

        const third = await run([])
        expect(third.output).toMatch(/Models: 0 created, 0 updated, 20 identical, 0 deleted\./)
        expect(third.output).toMatch(/Documents: 0 created, 0 updated, 56 unchanged\./)

        const pushed = await reader(repo).dangerouslyGetAll({ lang: '*' })
        const identities = pushed.map((d) => `${d.type}/${d.uid ?? d.type}/${d.lang}`)
        expect(new Set(identities).size).toBe(identities.length)
        expect(listFiles(path.join(repo.dir, 'documents'))).toHaveLength(56)
        const original = await servedFolder('content')
        expect(comparable(pushed)).toEqual(comparable(original))

        const out = path.join(tempDir('pull'), 'pulled')
        await pullRepository({ repository: repo.endpoint, out, log: () => {} })
        const store = loadContent(out)
        expect([...store.problems, ...validateContent(store, '.')]).toEqual([])
        expect(comparable(await servedFolder(out))).toEqual(comparable(original))
        for (const rel of listFiles(path.join(out, 'media')))
          expect(
            readFileSync(path.join(out, 'media', rel)).equals(
              readFileSync(path.join('content/media', rel)),
            ),
          ).toBe(true)
        rmSync(path.dirname(out), { recursive: true, force: true })
      } finally {
        await repo.close()
      }
    },
    15 * 60_000,
  )
})
