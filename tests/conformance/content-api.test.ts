import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildFixture, TAGS, type Fixture, type FixtureDocument } from '../fixtures/content-builder'
import { serveContentApi, type Served } from './helpers'

/**
 * The official `@prismicio/client` against the embedded content API over a real socket. Every
 * expected answer is computed here from the documents the fixture builder wrote.
 */

let fixture: Fixture
let served: Served
let client: prismic.Client

beforeAll(async () => {
  fixture = buildFixture(mkdtempSync(path.join(tmpdir(), 'facet-conformance-')), {
    count: 120,
    seed: 7,
  })
  served = await serveContentApi({ contentDir: fixture.dir, modelsDir: fixture.dir })
  client = prismic.createClient(served.endpoint)
})

afterAll(async () => {
  await served?.close()
  if (fixture) rmSync(fixture.dir, { recursive: true, force: true })
})

type Doc = prismic.PrismicDocument
const label = (d: { lang: string; type: string; uid?: string | null }) =>
  `${d.lang}:${d.type}:${d.uid ?? '-'}`
const labels = (docs: { lang: string; type: string; uid?: string | null }[]) =>
  docs.map(label).sort()
const articles = (lang?: string) =>
  fixture.documents.filter((d) => d.type === 'article' && (!lang || d.lang === lang))
const expectedLabels = (pred: (d: FixtureDocument) => boolean, lang?: string) =>
  labels(articles(lang).filter(pred))

/** Every page of a query, fetched with `page` (no wait between pages). */
async function all(params: Partial<prismic.BuildQueryURLArgs> = {}): Promise<Doc[]> {
  const out: Doc[] = []
  for (let page = 1; ; page++) {
    const response = await client.get({ pageSize: 100, ...params, page })
    out.push(...response.results)
    if (!response.next_page) return out
  }
}

/** The results of a filter on articles, in every language. */
const filtered = async (...filters: string[]) =>
  labels(
    await all({ filters: [prismic.filter.at('document.type', 'article'), ...filters], lang: '*' }),
  )

const text = (value: unknown) =>
  Array.isArray(value)
    ? value.map((b: { text?: string }) => b.text ?? '').join(' ')
    : String(value ?? '')
const dateOf = (d: FixtureDocument) =>
  typeof d.data.published === 'string' ? new Date(`${d.data.published}T00:00:00Z`) : undefined
const eventOf = (d: FixtureDocument) =>
  typeof d.data.event_time === 'string'
    ? new Date(d.data.event_time.replace('+0000', 'Z'))
    : undefined
const isoWeekday = (date: Date) => ((date.getUTCDay() + 6) % 7) + 1
const ratingOf = (d: FixtureDocument) =>
  typeof d.data.rating === 'number' ? d.data.rating : undefined

/** A media URL as the API serves it: the URL given, then the hash of the file's bytes. */
function versioned(url: string) {
  return expect.stringMatching(
    new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[?&]v=[\\w-]{12}$`),
  )
}

describe('repository endpoint', () => {
  it('lists the master ref, languages, types, tags and the everything form', async () => {
    const repository = await client.getRepository()
    const master = repository.refs.find((r) => r.isMasterRef)
    expect(master).toMatchObject({ id: 'master', label: 'Master' })
    expect(master!.ref).toMatch(/^\S+$/)
    expect(repository.languages).toEqual([
      { id: 'en-us', name: 'English - United States', is_master: true },
      { id: 'fr-fr', name: 'French - France', is_master: false },
    ])
    expect(repository.types).toEqual({
      article: 'Article',
      author: 'Writer',
      settings: 'Site settings',
    })
    // Prismic lists tags through the Tags API only, and keeps an empty list here.
    expect(repository.tags).toEqual([])
    const everything = repository.forms.everything!
    expect(everything.action).toBe(`${served.endpoint}/documents/search`)
    expect(Object.keys(everything.fields)).toEqual(
      expect.arrayContaining([
        'ref',
        'q',
        'lang',
        'page',
        'pageSize',
        'after',
        'fetch',
        'fetchLinks',
        'orderings',
      ]),
    )
    for (const key of [
      'bookmarks',
      'version',
      'license',
      'oauth_initiate',
      'oauth_token',
      'experiments',
    ])
      expect(repository).toHaveProperty(key)
    expect(repository).toHaveProperty('integrationFieldsRef')
  })

  it('answers getTags with every tag in use, through the tags form as Prismic serves them', async () => {
    const requested: string[] = []
    const watching = prismic.createClient(served.endpoint, {
      fetch: (input, init) => {
        requested.push(String(input))
        return fetch(input, init)
      },
    })
    const repository = await watching.getRepository()
    expect(repository.forms.tags).toEqual({
      method: 'GET',
      enctype: 'application/x-www-form-urlencoded',
      action: `${served.origin}/api/tags`,
      fields: {},
    })
    expect((await watching.getTags()).sort()).toEqual(
      [...new Set(TAGS.filter((t) => fixture.documents.some((d) => d.tags.includes(t))))].sort(),
    )
    expect(requested).toContain(`${served.origin}/api/tags`)
  })
})

describe('query methods', () => {
  it('get answers the master language by default with Prismic’s envelope and working page links', async () => {
    const expectedTotal = fixture.documents.filter((d) => d.lang === 'en-us').length
    const first = await client.get({ pageSize: 30 })
    expect(first).toMatchObject({
      page: 1,
      results_per_page: 30,
      results_size: 30,
      total_results_size: expectedTotal,
      total_pages: Math.ceil(expectedTotal / 30),
      prev_page: null,
    })
    expect(first.results.every((d) => d.lang === 'en-us')).toBe(true)
    const second = (await (await fetch(first.next_page!)).json()) as prismic.Query
    expect(second.page).toBe(2)
    expect(second.prev_page).not.toBeNull()
    const back = (await (await fetch(second.prev_page!)).json()) as prismic.Query
    expect(back.results.map((d) => d.id)).toEqual(first.results.map((d) => d.id))
    expect(new Set([...first.results, ...second.results].map((d) => d.id)).size).toBe(60)
  })

  it('returns documents in Prismic’s shape, with every derived field computed', async () => {
    const doc = await client.getByUID('article', 'article-00003')
    expect(Object.keys(doc).sort()).toEqual(
      [
        'alternate_languages',
        'data',
        'first_publication_date',
        'href',
        'id',
        'lang',
        'last_publication_date',
        'linked_documents',
        'slugs',
        'tags',
        'type',
        'uid',
        'url',
      ].sort(),
    )
    const source = fixture.documents.find((d) => d.key === 'article-00003' && d.lang === 'en-us')!
    expect(doc.tags).toEqual(source.tags)
    expect(doc.first_publication_date).toBe(source.first_publication_date)
    expect(doc.last_publication_date).toBe(source.last_publication_date)
    expect(doc.href).toContain('/api/v2/documents/search?')
    expect(doc.alternate_languages).toEqual([
      { id: expect.any(String), uid: 'article-00003-fr', type: 'article', lang: 'fr-fr' },
    ])
    const french = await client.getByID(doc.alternate_languages[0]!.id, { lang: 'fr-fr' })
    expect(french.uid).toBe('article-00003-fr')
    expect(french.alternate_languages).toEqual([
      { id: doc.id, uid: 'article-00003', type: 'article', lang: 'en-us' },
    ])
    expect(doc.data.summary).toBe(source.data.summary)
    const hrefAnswer = (await (await fetch(doc.href)).json()) as prismic.Query
    expect(hrefAnswer.results.map((d) => d.id)).toEqual([doc.id])
  })

  it('expands every field kind and fills the fields a document leaves out', async () => {
    const sink = await client.getByUID('article', 'kitchen-sink')
    const d = sink.data
    expect(d.cover).toMatchObject({
      url: versioned(`${served.origin}/media/images/cover.png?auto=compress,format`),
      alt: 'A cover',
      copyright: 'Facet',
      dimensions: { width: 2, height: 1 },
      // The model's 1 × 1 thumbnail: its own file, cut to that size (centred), as Prismic does.
      mobile: {
        url: versioned(
          `${served.origin}/media/images/cover.png?auto=compress,format&rect=1,0,1,1&w=1&h=1`,
        ),
        alt: 'A small cover',
        dimensions: { width: 1, height: 1 },
      },
    })
    expect(d.attachment).toMatchObject({
      link_type: 'Media',
      kind: 'file',
      name: 'thing.glb',
      size: '64',
      url: versioned(`${served.origin}/media/models/thing.glb`),
    })
    const glb = await fetch(d.attachment.url)
    expect(glb.status).toBe(200)
    expect((await glb.arrayBuffer()).byteLength).toBe(64)
    const author2 = await client.getByUID('author', 'author-2')
    expect(d.author).toMatchObject({
      link_type: 'Document',
      id: author2.id,
      type: 'author',
      uid: 'author-2',
      lang: 'en-us',
      isBroken: false,
    })
    expect(prismic.isFilled.link(d.website)).toBe(true)
    expect(d.location).toEqual({ latitude: 48.8566, longitude: 2.3522 })
    expect(d.video.embed_url).toBe('https://example.com/v/1')
    expect(d.gallery[1].picture).toEqual({})
    expect(d.body[1]).toMatchObject({
      type: 'image',
      url: versioned(`${served.origin}/media/images/cover.png?auto=compress,format`),
      dimensions: { width: 2, height: 1 },
    })
    expect(d.body[0].spans[1].data).toMatchObject({ link_type: 'Document', uid: 'author-1' })
    expect(
      d.slices.map((s: prismic.SharedSlice) => [s.slice_type, s.variation, s.items.length]),
    ).toEqual([
      ['quote', 'default', 0],
      ['quote', 'withImage', 2],
    ])
    const empty = await client.getByUID('article', 'empty')
    expect(empty.data).toEqual({
      title: [],
      summary: null,
      body: [],
      rating: null,
      featured: false,
      category: null,
      accent: null,
      published: null,
      event_time: null,
      author: { link_type: 'Any' },
      website: { link_type: 'Any' },
      attachment: { link_type: 'Any' },
      cover: {},
      location: {},
      video: {},
      gallery: [],
      slices: [],
    })
  })

  it('getFirst, getSingle, getByIDs (in the given order) and getAllByType across pages', async () => {
    const first = await client.getFirst({
      filters: [prismic.filter.at('my.article.uid', 'article-00010')],
    })
    expect(first.uid).toBe('article-00010')
    expect((await client.getSingle('settings')).data.site_name).toBe('Fixture site')
    expect((await client.getSingle('settings', { lang: 'fr-fr' })).data.site_name).toBe(
      'Site de test',
    )
    const picks = await Promise.all(
      ['article-00050', 'article-00002', 'article-00031'].map((uid) =>
        client.getByUID('article', uid),
      ),
    )
    const byIds = await client.getByIDs(picks.map((d) => d.id))
    expect(byIds.results.map((d) => d.uid)).toEqual([
      'article-00050',
      'article-00002',
      'article-00031',
    ])
    const everyArticle = await client.getAllByType('article')
    expect(everyArticle.length).toBeGreaterThan(100)
    expect(labels(everyArticle)).toEqual(expectedLabels(() => true, 'en-us'))
    const uids = await client.getAllByUIDs('article', ['article-00009', 'article-00001'])
    expect(uids.map((d) => d.uid)).toEqual(['article-00009', 'article-00001'])
  })

  it('getByTag, getBySomeTags and getByEveryTag, including a tag with quotes', async () => {
    const byTag = await all({ filters: [prismic.filter.any('document.tags', ['beta'])] })
    expect(labels((await client.getByTag('beta', { pageSize: 100 })).results)).toEqual(
      labels(byTag),
    )
    expect(labels(byTag)).toEqual(
      labels(fixture.documents.filter((d) => d.lang === 'en-us' && d.tags.includes('beta'))),
    )
    const every = await client.getAllByEveryTag(['alpha', 'Quote "marks"'], { lang: '*' })
    expect(labels(every)).toEqual(
      labels(
        fixture.documents.filter(
          (d) => d.tags.includes('alpha') && d.tags.includes('Quote "marks"'),
        ),
      ),
    )
    const some = await client.getAllBySomeTags(['gamma', 'delta'], { lang: '*' })
    expect(labels(some)).toEqual(
      labels(fixture.documents.filter((d) => d.tags.includes('gamma') || d.tags.includes('delta'))),
    )
  })

  it('orders by several fields, desc, on my.* and document.* paths', async () => {
    const response = await client.get({
      filters: [prismic.filter.at('document.type', 'article')],
      orderings: [
        { field: 'my.article.published', direction: 'desc' },
        { field: 'my.article.uid' },
      ],
      pageSize: 25,
    })
    const expected = articles('en-us')
      .map((d) => ({ uid: d.uid!, time: dateOf(d)?.getTime() }))
      .sort((a, b) => {
        if (a.time !== b.time) {
          if (a.time === undefined) return 1
          if (b.time === undefined) return -1
          return b.time - a.time
        }
        return a.uid < b.uid ? -1 : 1
      })
    expect(response.results.map((d) => d.uid)).toEqual(expected.slice(0, 25).map((d) => d.uid))
    const byFirst = await client.get({
      filters: [prismic.filter.at('document.type', 'article')],
      orderings: [{ field: 'document.first_publication_date' }],
      pageSize: 5,
    })
    const oldest = articles('en-us')
      .sort((a, b) => a.first_publication_date.localeCompare(b.first_publication_date))
      .slice(0, 5)
    expect(byFirst.results.map((d) => d.uid)).toEqual(oldest.map((d) => d.uid))
    const after = await client.get({
      filters: [prismic.filter.at('document.type', 'article')],
      orderings: [{ field: 'document.first_publication_date' }],
      pageSize: 3,
      after: byFirst.results[1]!.id,
    })
    expect(after.results.map((d) => d.uid)).toEqual(oldest.slice(2, 5).map((d) => d.uid))
  })

  it('answers lang=* with every language and lang=fr-fr with French only', async () => {
    expect(labels(await all({ lang: '*' }))).toEqual(labels(fixture.documents))
    expect(labels(await all({ lang: 'fr-fr' }))).toEqual(
      labels(fixture.documents.filter((d) => d.lang === 'fr-fr')),
    )
  })

  it('fills url from routes for documents and links, and fetchLinks and fetch select fields', async () => {
    const routed = prismic.createClient<Doc>(served.endpoint, {
      routes: [
        { type: 'article', path: '/:lang?/articles/:uid' },
        { type: 'author', path: '/:lang/authors/:uid' },
      ],
    })
    const doc = await routed.getByUID('article', 'article-00003', { fetchLinks: ['author.name'] })
    expect(doc.url).toBe('/articles/article-00003')
    const fr = await routed.getByUID('article', 'article-00003-fr', { lang: 'fr-fr' })
    expect(fr.url).toBe('/fr-fr/articles/article-00003-fr')
    const source = fixture.documents.find((d) => d.uid === 'article-00003')!
    const authorKey = (source.data.author as { key: string }).key
    expect(doc.data.author.url).toBe(`/en-us/authors/${authorKey}`)
    expect(doc.data.author.data).toEqual({ name: `Author ${authorKey.split('-')[1]}` })
    const resolved = prismic.createClient<Doc>(served.endpoint, {
      routes: [{ type: 'article', path: '/by/:author/:uid', resolvers: { author: 'author' } }],
    })
    expect((await resolved.getByUID('article', 'kitchen-sink')).url).toBe(
      '/by/author-2/kitchen-sink',
    )
    const slim = await client.getByUID('article', 'article-00003', { fetch: ['article.summary'] })
    expect(Object.keys(slim.data)).toEqual(['summary'])
  })
})

describe('graphQuery', () => {
  it('selects fields, follows links into their type and narrows groups and slices', async () => {
    const graphQuery = `{
      article {
        summary
        author { ...on author { name } }
        gallery { caption }
        slices { ...on quote { variation { ...on withImage { primary { text } items { line } } } } }
      }
    }`
    const sink = await client.getByUID('article', 'kitchen-sink', { graphQuery })
    expect(Object.keys(sink.data).sort()).toEqual(['author', 'gallery', 'slices', 'summary'])
    expect(sink.data.summary).toBe('A zyxquux sample with every field')
    expect(sink.data.author).toMatchObject({ uid: 'author-2', data: { name: 'Author 2' } })
    expect(sink.data.gallery).toEqual([{ caption: 'First picture' }, { caption: 'Second picture' }])
    expect(sink.data.slices).toHaveLength(1)
    expect(sink.data.slices[0]).toMatchObject({
      slice_type: 'quote',
      variation: 'withImage',
      primary: { text: 'Seen' },
      items: [{ line: 'one' }, { line: 'two' }],
    })
    expect(Object.keys(sink.data.slices[0].primary)).toEqual(['text'])
    const error = await client.get({ graphQuery: '{ article { title ' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(prismic.ParsingError)
  })
})

describe('filters', () => {
  it('at and not on uid, select, boolean, link, group fields and document.id', async () => {
    expect(await filtered(prismic.filter.at('my.article.category', 'guide'))).toEqual(
      expectedLabels((d) => d.data.category === 'guide'),
    )
    expect(await filtered(prismic.filter.not('my.article.category', 'guide'))).toEqual(
      expectedLabels((d) => d.data.category !== 'guide'),
    )
    expect(await filtered(prismic.filter.at('my.article.featured', true))).toEqual(
      expectedLabels((d) => d.data.featured === true),
    )
    expect(await filtered(prismic.filter.at('my.article.gallery.caption', 'caption 6'))).toEqual(
      expectedLabels((d) => d.key === 'article-00006'),
    )
    const author3 = await client.getByUID('author', 'author-3')
    expect(await filtered(prismic.filter.at('my.article.author', author3.id))).toEqual(
      // A link points at the target's translation in the document's own language.
      expectedLabels(
        (d) =>
          d.lang === 'en-us' && (d.data.author as { key?: string } | undefined)?.key === 'author-3',
      ),
    )
    expect(await filtered(prismic.filter.at('document.id', author3.id))).toEqual([])
    expect(labels(await all({ filters: [prismic.filter.at('document.id', author3.id)] }))).toEqual([
      'en-us:author:author-3',
    ])
    expect(await filtered(prismic.filter.at('document.tags', ['alpha', 'beta']))).toEqual(
      expectedLabels((d) => d.tags.includes('alpha') && d.tags.includes('beta')),
    )
    expect(await filtered(prismic.filter.not('document.tags', 'alpha'))).toEqual(
      expectedLabels((d) => !d.tags.includes('alpha')),
    )
  })

  it('any on tags and fields, and in on ids and uids keeping the given order', async () => {
    expect(await filtered(prismic.filter.any('my.article.category', ['news', 'story']))).toEqual(
      expectedLabels((d) => d.data.category === 'news' || d.data.category === 'story'),
    )
    expect(await filtered(prismic.filter.any('document.tags', ['Quote "marks"']))).toEqual(
      expectedLabels((d) => d.tags.includes('Quote "marks"')),
    )
    const uids = ['article-00012', 'article-00004', 'article-00099']
    const inUid = await client.get({ filters: [prismic.filter.in('my.article.uid', uids)] })
    expect(inUid.results.map((d) => d.uid)).toEqual(uids)
    const inId = await client.get({
      filters: [
        prismic.filter.in(
          'document.id',
          [...inUid.results].reverse().map((d) => d.id),
        ),
      ],
    })
    expect(inId.results.map((d) => d.uid)).toEqual([...uids].reverse())
  })

  it('fulltext on the document and on a field, case-insensitively', async () => {
    const hasWord = (d: FixtureDocument, word: string) =>
      [d.data.title, d.data.summary, d.data.body].map(text).join(' ').toLowerCase().includes(word)
    expect(await filtered(prismic.filter.fulltext('document', 'WALNUT'))).toEqual(
      expectedLabels((d) => hasWord(d, 'walnut')),
    )
    expect(await filtered(prismic.filter.fulltext('my.article.summary', 'Résumé'))).toEqual(
      expectedLabels((d) => text(d.data.summary).toLowerCase().includes('résumé')),
    )
    expect(await filtered(prismic.filter.fulltext('my.article.title', 'every field'))).toEqual([
      'en-us:article:kitchen-sink',
    ])
  })

  it('has and missing', async () => {
    expect(await filtered(prismic.filter.has('my.article.rating'))).toEqual(
      expectedLabels((d) => ratingOf(d) !== undefined),
    )
    expect(await filtered(prismic.filter.missing('my.article.rating'))).toEqual(
      expectedLabels((d) => ratingOf(d) === undefined),
    )
    expect(await filtered(prismic.filter.has('my.article.cover'))).toEqual([
      'en-us:article:kitchen-sink',
    ])
  })

  it('similar finds documents that share rare words, never the source', async () => {
    const sink = await client.getByUID('article', 'kitchen-sink')
    const similar = await filtered(prismic.filter.similar(sink.id, 5))
    expect(similar).toContain('en-us:article:zyxquux-cousin')
    expect(similar).not.toContain('en-us:article:kitchen-sink')
  })

  it('number.lt, number.gt (strict) and number.inRange (inclusive)', async () => {
    expect(await filtered(prismic.filter.numberLessThan('my.article.rating', 3))).toEqual(
      expectedLabels((d) => (ratingOf(d) ?? Infinity) < 3),
    )
    expect(await filtered(prismic.filter.numberGreaterThan('my.article.rating', 7))).toEqual(
      expectedLabels((d) => (ratingOf(d) ?? -Infinity) > 7),
    )
    expect(await filtered(prismic.filter.numberInRange('my.article.rating', 2, 4.5))).toEqual(
      expectedLabels((d) => ratingOf(d) !== undefined && ratingOf(d)! >= 2 && ratingOf(d)! <= 4.5),
    )
  })

  it('date.after, date.before, date.between and date.year on Date fields and publication dates', async () => {
    const cut = new Date('2022-03-01T00:00:00Z')
    expect(await filtered(prismic.filter.dateAfter('my.article.published', cut))).toEqual(
      expectedLabels((d) => (dateOf(d)?.getTime() ?? -Infinity) > cut.getTime()),
    )
    expect(await filtered(prismic.filter.dateBefore('my.article.published', '2020-06-01'))).toEqual(
      expectedLabels(
        (d) => (dateOf(d)?.getTime() ?? Infinity) < Date.parse('2020-06-01T00:00:00Z'),
      ),
    )
    const [from, to] = [Date.parse('2020-01-01T00:00:00Z'), Date.parse('2020-12-31T00:00:00Z')]
    expect(await filtered(prismic.filter.dateBetween('my.article.published', from, to))).toEqual(
      expectedLabels(
        (d) => !!dateOf(d) && dateOf(d)!.getTime() >= from && dateOf(d)!.getTime() <= to,
      ),
    )
    expect(
      await filtered(prismic.filter.dateYear('document.first_publication_date', 2021)),
    ).toEqual(expectedLabels((d) => d.first_publication_date.startsWith('2021')))
    expect(await filtered(prismic.filter.dateAfter('document.last_publication_date', cut))).toEqual(
      expectedLabels(
        (d) => Date.parse(d.last_publication_date.replace('+0000', 'Z')) > cut.getTime(),
      ),
    )
  })

  it('date.day-of-month, day-of-week (names and numbers) and month with -after and -before', async () => {
    const on = (f: (date: Date) => boolean) => (d: FixtureDocument) => !!dateOf(d) && f(dateOf(d)!)
    expect(await filtered(prismic.filter.dateDayOfMonth('my.article.published', 10))).toEqual(
      expectedLabels(on((t) => t.getUTCDate() === 10)),
    )
    expect(await filtered(prismic.filter.dateDayOfMonthAfter('my.article.published', 20))).toEqual(
      expectedLabels(on((t) => t.getUTCDate() > 20)),
    )
    expect(await filtered(prismic.filter.dateDayOfMonthBefore('my.article.published', 5))).toEqual(
      expectedLabels(on((t) => t.getUTCDate() < 5)),
    )
    expect(await filtered(prismic.filter.dateDayOfWeek('my.article.published', 'Tuesday'))).toEqual(
      expectedLabels(on((t) => isoWeekday(t) === 2)),
    )
    expect(await filtered(prismic.filter.dateDayOfWeek('my.article.published', 7))).toEqual(
      expectedLabels(on((t) => isoWeekday(t) === 7)),
    )
    expect(
      await filtered(prismic.filter.dateDayOfWeekAfter('my.article.published', 'friday')),
    ).toEqual(expectedLabels(on((t) => isoWeekday(t) > 5)))
    expect(await filtered(prismic.filter.dateDayOfWeekBefore('my.article.published', 3))).toEqual(
      expectedLabels(on((t) => isoWeekday(t) < 3)),
    )
    expect(await filtered(prismic.filter.dateMonth('my.article.published', 'march'))).toEqual(
      expectedLabels(on((t) => t.getUTCMonth() === 2)),
    )
    expect(await filtered(prismic.filter.dateMonth('my.article.published', 11))).toEqual(
      expectedLabels(on((t) => t.getUTCMonth() === 10)),
    )
    expect(
      await filtered(prismic.filter.dateMonthAfter('my.article.published', 'October')),
    ).toEqual(expectedLabels(on((t) => t.getUTCMonth() > 9)))
    expect(await filtered(prismic.filter.dateMonthBefore('my.article.published', 2))).toEqual(
      expectedLabels(on((t) => t.getUTCMonth() < 1)),
    )
    expect(await filtered(prismic.filter.dateYear('my.article.published', 2020))).toEqual(
      expectedLabels(on((t) => t.getUTCFullYear() === 2020)),
    )
  })

  it('date.hour with -after and -before on Timestamp fields', async () => {
    const on = (f: (h: number) => boolean) => (d: FixtureDocument) =>
      !!eventOf(d) && f(eventOf(d)!.getUTCHours())
    expect(await filtered(prismic.filter.dateHour('my.article.event_time', 12))).toEqual(
      expectedLabels(on((h) => h === 12)),
    )
    expect(await filtered(prismic.filter.dateHourAfter('my.article.event_time', 20))).toEqual(
      expectedLabels(on((h) => h > 20)),
    )
    expect(await filtered(prismic.filter.dateHourBefore('my.article.event_time', 3))).toEqual(
      expectedLabels(on((h) => h < 3)),
    )
  })

  it('geopoint.near keeps points within the radius, nearest first', async () => {
    const [lat, lng, km] = [45, 0, 300]
    const rad = Math.PI / 180
    const distance = (p: { latitude: number; longitude: number }) =>
      2 *
      6371 *
      Math.asin(
        Math.sqrt(
          Math.sin(((p.latitude - lat) * rad) / 2) ** 2 +
            Math.cos(lat * rad) *
              Math.cos(p.latitude * rad) *
              Math.sin(((p.longitude - lng) * rad) / 2) ** 2,
        ),
      )
    const near = await all({
      filters: [prismic.filter.geopointNear('my.article.location', lat, lng, km)],
      lang: '*',
    })
    const expected = articles().filter(
      (d) => d.data.location && distance(d.data.location as never) <= km,
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(labels(near)).toEqual(labels(expected))
    const distances = near.map((d) => distance(d.data.location))
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
  })
})

describe('errors', () => {
  it('raises ParsingError for a query it cannot read and for pageSize outside 1–100', async () => {
    const error = await client
      .get({ filters: ['[[at(document.type, "article"]]'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(prismic.ParsingError)
    expect((error as prismic.ParsingError).response).toMatchObject({
      type: 'parsing-error',
      line: 1,
      column: expect.any(Number),
      location: expect.any(String),
    })
    const typo = await client
      .get({ filters: [prismic.filter.at('my.article.titel', 'x')] })
      .catch((e: unknown) => e)
    expect(typo).toBeInstanceOf(prismic.ParsingError)
    expect((typo as prismic.ParsingError).message).toMatch(/^unexpected field 'my.article.titel'/)
    expect(
      await client.get({ filters: ['[[nope(document.type)]]'] }).catch((e: unknown) => e),
    ).toBeInstanceOf(prismic.ParsingError)
    expect(await client.get({ pageSize: 101 }).catch((e: unknown) => e)).toBeInstanceOf(
      prismic.ParsingError,
    )
    expect(await client.get({ pageSize: 0 }).catch((e: unknown) => e)).toBeInstanceOf(
      prismic.ParsingError,
    )
  })

  it('raises NotFoundError for a uid nobody has, and RepositoryNotFoundError for an unknown path', async () => {
    expect(await client.getByUID('article', 'no-such-uid').catch((e: unknown) => e)).toBeInstanceOf(
      prismic.NotFoundError,
    )
    const lost = prismic.createClient(`${served.origin}/no-such-repository/api/v2`)
    expect(await lost.getRepository().catch((e: unknown) => e)).toBeInstanceOf(
      prismic.RepositoryNotFoundError,
    )
  })

  it('answers an unknown ref with 404 api_notfound_error naming the master ref, and the client retries with it', async () => {
    const { ref } = await client.getMasterRef()
    const raw = await fetch(`${served.endpoint}/documents/search?ref=not-a-ref`)
    expect(raw.status).toBe(404)
    const body = (await raw.json()) as { type: string; message: string }
    expect(body.type).toBe('api_notfound_error')
    expect(body.message).toMatch(new RegExp(`Master ref is: ${ref}$`))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const answer = await client.get({ ref: 'not-a-ref', pageSize: 1 })
      expect(answer.total_results_size).toBe(
        fixture.documents.filter((d) => d.lang === 'en-us').length,
      )
      expect(warn.mock.calls.flat().join(' ')).toContain('The ref (not-a-ref) was invalid')
    } finally {
      warn.mockRestore()
    }
  })

  it('raises ForbiddenError without the access token it was configured with, and answers with it', async () => {
    const guarded = await serveContentApi({
      contentDir: fixture.dir,
      modelsDir: fixture.dir,
      accessToken: 'secret-token',
    })
    try {
      const anonymous = prismic.createClient(guarded.endpoint)
      const refused = await anonymous.getRepository().catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(prismic.ForbiddenError)
      // The client's ForbiddenError takes its message from the body's `message`.
      expect((refused as prismic.ForbiddenError).message).toMatch(/^Invalid access token/)
      const wrong = prismic.createClient(guarded.endpoint, { accessToken: 'wrong' })
      const wrongError = await wrong.get().catch((e: unknown) => e)
      expect(wrongError).toBeInstanceOf(prismic.ForbiddenError)
      expect((wrongError as prismic.ForbiddenError).message).toMatch(/^Invalid access token/)
      expect(await wrong.getTags().catch((e: unknown) => e)).toBeInstanceOf(prismic.ForbiddenError)
      const { ref } = await prismic
        .createClient(guarded.endpoint, { accessToken: 'secret-token' })
        .getMasterRef()
      const search = await fetch(`${guarded.endpoint}/documents/search?ref=${ref}`)
      expect(search.status).toBe(401)
      const allowed = prismic.createClient(guarded.endpoint, { accessToken: 'secret-token' })
      expect((await allowed.getSingle('settings')).data.site_name).toBe('Fixture site')
    } finally {
      await guarded.close()
    }
  })

  it('retries a 429 after its Retry-After and then answers', async () => {
    const limited = await serveContentApi({
      contentDir: fixture.dir,
      modelsDir: fixture.dir,
      rateLimit: 1,
      retryAfter: 0.05,
    })
    const statuses: number[] = []
    const retryAfters: (string | null)[] = []
    const countingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      if (response.status === 429) retryAfters.push(response.headers.get('retry-after'))
      return response
    }
    try {
      const limitedClient = prismic.createClient(limited.endpoint, { fetch: countingFetch })
      const settings = await limitedClient.getSingle('settings')
      expect(settings.data.site_name).toBe('Fixture site')
      expect(statuses).toContain(429)
      expect(retryAfters.every((value) => value === '0.05')).toBe(true)
      expect(statuses.at(-1)).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
