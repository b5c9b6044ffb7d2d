import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ContentInvalidError, createContentApi } from '@services/content-api/app'
import { checkFolder, formatProblems } from '@services/content-api/validate'
import { buildFixture } from '../fixtures/content-builder'

/**
 * Content validation: each kind of mistake in a content folder is reported with its file and
 * JSON path by `content:check` (exit 1), from the models. The API refuses only what Prismic
 * could not hold (ContentInvalidError); it serves documents that no longer fit their models.
 */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function fixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-validate-'))
  dirs.push(dir)
  buildFixture(dir, { count: 6, seed: 3 })
  return dir
}

type Json = Record<string, unknown>
function edit(dir: string, file: string, change: (doc: Json) => void): void {
  const full = path.join(dir, file)
  const doc = JSON.parse(readFileSync(full, 'utf8')) as Json
  change(doc)
  writeFileSync(full, JSON.stringify(doc))
}
function write(dir: string, file: string, doc: unknown): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), JSON.stringify(doc))
}

/** The report `content:check` prints for the folder (undefined when the folder is valid). */
function report(dir: string): string | undefined {
  const { store, problems } = checkFolder(dir, dir)
  return problems.length > 0 ? formatProblems(problems, store.dir) : undefined
}

/** The report the API refuses the folder with (undefined when it serves it). */
function refusal(dir: string): string | undefined {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    createContentApi({ contentDir: dir, modelsDir: dir }).close()
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(ContentInvalidError)
    return (error as Error).message
  } finally {
    warn.mockRestore()
  }
}

const sink = 'documents/article/kitchen-sink/en-us.json'
const data = (doc: Json) => doc.data as Json

describe('content validation', () => {
  it('accepts the generated fixture', () => {
    expect(report(fixture())).toBeUndefined()
  })

  it.each([
    ['Text', 'summary', 42, 'must be a string or null'],
    ['StructuredText', 'body', 'plain text', 'must be a list of blocks'],
    ['Number', 'rating', '4', 'must be a number or null'],
    ['Boolean', 'featured', 'yes', 'must be true or false'],
    ['Select', 'category', 'poem', 'not one of its options: news, guide, review, story'],
    ['Color', 'accent', 'red', 'must be a colour'],
    ['Date', 'published', '2024-02-30', 'must be a date'],
    ['Timestamp', 'event_time', 'yesterday', 'must be a timestamp'],
    ['Link', 'website', 'https://example.com', 'must be an object with "link_type"'],
    ['Image', 'cover', 'cover.png', 'must be {} or { "media"'],
    ['GeoPoint', 'location', { latitude: 'north' }, 'latitude'],
    ['Embed', 'video', { html: '<p>' }, 'needs "embed_url"'],
    ['Group', 'gallery', { caption: 'x' }, 'must be a list of objects'],
  ])(
    'reports a %s field of the wrong kind with its file and path',
    (_kind, field, value, message) => {
      const dir = fixture()
      edit(dir, sink, (doc) => {
        data(doc)[field] = value
      })
      const text = report(dir)
      expect(text).toContain(`${sink} $.data.${field}`)
      expect(text).toContain(message)
    },
  )

  it('reports fields the model does not have, in data, groups and slices', () => {
    const dir = fixture()
    edit(dir, sink, (doc) => {
      data(doc).subtitle = 'x'
      ;(data(doc).gallery as Json[])[0]!.credit = 'y'
      ;((data(doc).slices as Json[])[1]!.items as Json[])[0]!.colour = 'z'
    })
    const text = report(dir)!
    expect(text).toContain(`${sink} $.data.subtitle: is not a field of type article`)
    expect(text).toContain(`${sink} $.data.gallery[0].credit: is not a field of this group`)
    expect(text).toContain(
      `${sink} $.data.slices[1].items[0].colour: is not a field of the items of slice quote`,
    )
  })

  it('reports an unknown type, slice and variation', () => {
    const dir = fixture()
    write(dir, 'documents/recipe/soup/en-us.json', { uid: 'soup', data: {} })
    edit(dir, sink, (doc) => {
      const slices = data(doc).slices as Json[]
      slices[0]!.slice_type = 'carousel'
      slices[1]!.variation = 'wide'
    })
    const text = report(dir)!
    expect(text).toContain('documents/recipe/soup/en-us.json $: has type "recipe"')
    expect(text).toContain(
      `${sink} $.data.slices[0].slice_type: is "carousel", which this slice zone does not allow`,
    )
    expect(text).toContain(
      `${sink} $.data.slices[1].variation: is "wide", which is not a variation of quote`,
    )
  })

  it('reports a missing uid and a uid used twice for one type and language', () => {
    const dir = fixture()
    edit(dir, 'documents/article/article-00002/en-us.json', (doc) => {
      delete doc.uid
    })
    edit(dir, 'documents/article/article-00004/en-us.json', (doc) => {
      doc.uid = 'article-00001'
    })
    const text = report(dir)!
    expect(text).toContain('documents/article/article-00002/en-us.json $.uid: is missing')
    expect(text).toMatch(/article-00004\/en-us.json \$.uid: "article-00001" is already the uid of/)
    // Prismic cannot hold two documents with one uid, so the API refuses the folder; a document
    // written before its type had a UID field, Prismic still serves.
    const refused = refusal(dir)!
    expect(refused).toMatch(
      /article-00004\/en-us.json \$.uid: "article-00001" is already the uid of/,
    )
    expect(refused).not.toContain('article-00002')
  })

  it('reports links to a missing document or media file', () => {
    const dir = fixture()
    edit(dir, sink, (doc) => {
      data(doc).author = { link_type: 'Document', type: 'author', key: 'author-99' }
      data(doc).attachment = { link_type: 'Media', media: 'models/missing.glb' }
      ;(data(doc).gallery as Json[])[0]!.picture = { media: 'images/nope.png' }
    })
    const text = report(dir)!
    expect(text).toContain(`${sink} $.data.author: links to a document that does not exist`)
    expect(text).toContain(
      `${sink} $.data.attachment.media: names a media file that does not exist: media/models/missing.glb`,
    )
    expect(text).toContain(`${sink} $.data.gallery[0].picture.media: names a media file`)
  })

  it('reports a link to a type its field does not take and media in a document-only link', () => {
    const dir = fixture()
    edit(dir, sink, (doc) => {
      data(doc).author = { link_type: 'Document', type: 'article', key: 'empty' }
      data(doc).attachment = { link_type: 'Web', url: 'https://example.com' }
    })
    const text = report(dir)!
    expect(text).toContain(
      `${sink} $.data.author: links to a article, but this field takes only author`,
    )
    expect(text).toContain(
      `${sink} $.data.attachment: links to a Web, but this field takes media only`,
    )
  })

  it('reports alternates that disagree: a single type with two documents in one language', () => {
    const dir = fixture()
    write(dir, 'documents/settings/second/en-us.json', { data: { site_name: 'Second' } })
    expect(report(dir)).toContain(
      'documents/settings/second/en-us.json $: is a second document of the single type settings',
    )
  })

  it('reports keys that are not part of a document file and a language the repository lacks', () => {
    const dir = fixture()
    edit(dir, sink, (doc) => {
      doc.title = 'misplaced'
    })
    write(dir, 'documents/article/article-00001/de-de.json', { uid: 'a1-de', data: {} })
    const text = report(dir)!
    expect(text).toContain(`${sink} $.title: is not a key of a document file`)
    expect(text).toContain('documents/article/article-00001/de-de.json $: is in language "de-de"')
    expect(refusal(dir)).toBe(text)
  })

  it('never crashes on a malformed field: it accepts it or reports that field', () => {
    const dir = fixture()
    const original = readFileSync(path.join(dir, sink), 'utf8')
    const fields = [
      'summary',
      'body',
      'rating',
      'featured',
      'category',
      'accent',
      'published',
      'event_time',
      'author',
      'cover',
      'location',
      'video',
      'gallery',
      'slices',
    ]
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }), (field, value) => {
        writeFileSync(path.join(dir, sink), original)
        edit(dir, sink, (doc) => {
          data(doc)[field] = value
        })
        const text = report(dir)
        if (text !== undefined) expect(text).toContain(`${sink} $.data.${field}`)
        // A field of any shape is served as stored, whatever content:check says of it.
        expect(refusal(dir)).toBeUndefined()
      }),
      { numRuns: 60 },
    )
  })

  it('content:check prints the same report and exits 1', () => {
    const dir = fixture()
    edit(dir, sink, (doc) => {
      data(doc).rating = 'five'
    })
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'services/content-api/check-cli.ts', '--content', dir],
      { encoding: 'utf8' },
    )
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(`${sink} $.data.rating: is a Number field`)
    expect(run.stderr).toBe(`${report(dir)}\n`)
  })
})
