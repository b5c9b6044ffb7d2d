import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createContentApi, type ContentApi } from '@services/content-api/app'
import { FilterParseError, parseQuery } from '@services/content-api/filters'
import { buildFixture } from '../fixtures/content-builder'

/** The filter language as the official client writes it, and bad queries as 400s, never 500s. */

let dir: string
let api: ContentApi
let ref: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'facet-filters-'))
  buildFixture(dir, { count: 10, seed: 5 })
  api = createContentApi({ contentDir: dir, modelsDir: dir })
  ref = api.store().ref
})
afterAll(() => {
  api?.close()
  rmSync(dir, { recursive: true, force: true })
})

const search = (q: string) =>
  api.fetch(
    new Request(
      `http://local/api/v2/documents/search?ref=${ref}&q=${encodeURIComponent(q)}&lang=*`,
    ),
  )

describe('filter parser', () => {
  it('reads back any string the client writes, quotes included', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('\\')),
        (value) => {
          const [filter] = parseQuery(`[${prismic.filter.at('my.article.summary', value)}]`)
          expect(filter).toMatchObject({ name: 'at', path: 'my.article.summary', args: [value] })
        },
      ),
    )
  })

  it('reads arrays, numbers, booleans and dates as the client writes them', () => {
    const date = new Date('2024-05-06T07:08:09Z')
    expect(parseQuery(`[${prismic.filter.any('document.tags', ['a', 'b "c"'])}]`)[0]!.args).toEqual(
      [['a', 'b "c"']],
    )
    expect(parseQuery(`[${prismic.filter.numberInRange('my.a.n', -1.5, 2)}]`)[0]!.args).toEqual([
      -1.5, 2,
    ])
    expect(parseQuery(`[${prismic.filter.at('my.a.b', false)}]`)[0]!.args).toEqual([false])
    expect(parseQuery(`[${prismic.filter.dateAfter('my.a.d', date)}]`)[0]!.args).toEqual([
      date.getTime(),
    ])
    expect(
      parseQuery(`[${prismic.filter.at('document.type', 'a')}${prismic.filter.has('my.a.b')}]`),
    ).toHaveLength(2)
  })

  it('names the column of the first character it cannot read', () => {
    const error = (() => {
      try {
        parseQuery('[[at(document.type "page")]]')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(FilterParseError)
    expect((error as FilterParseError).column).toBe(19)
  })

  it('answers 400 parsing-error with a position for malformed queries', async () => {
    for (const q of [
      '[[at(document.type, "x"]]',
      '[[date.month(my.article.published, "smarch")]]',
      '[[number.lt(my.article.rating, "x")]]',
      '[[in(my.article.summary, ["x"])]]',
      '[[at(nowhere.x, "y")]]',
      '[[at(my.article.nofield, "y")]]',
      '[[similar("a")]]',
    ]) {
      const response = await search(q)
      expect(response.status, q).toBe(400)
      // Prismic's shape, which the official client's tests answer ParsingError with.
      expect(Object.keys(await response.json()).sort(), q).toEqual(
        ['column', 'id', 'line', 'location', 'message', 'type'].sort(),
      )
    }
  })

  it('answers a filter on a field or type the models lack with 400 "unexpected field", as Prismic does', async () => {
    for (const [q, field] of [
      ['[[at(my.article.nofield, "x")]]', 'my.article.nofield'],
      ['[[at(my.recipe.title, "x")]]', 'my.recipe.title'],
      ['[[has(my.article.gallery.credit)]]', 'my.article.gallery.credit'],
      ['[[at(document.colour, "x")]]', 'document.colour'],
    ] as const) {
      const response = await search(q)
      expect(response.status, q).toBe(400)
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({
        type: 'parsing-error',
        line: 1,
        column: q.indexOf(field) + 1,
        location: `${q}\n${' '.repeat(q.indexOf(field))}^`,
      })
      expect(body.message).toBe(
        `unexpected field '${field}' on line:1 col:${q.indexOf(field) + 1} in query '${q}'`,
      )
    }
    // Fields the model has, group subfields and uid pass.
    for (const q of [
      '[[at(my.article.summary, "x")]]',
      '[[at(my.article.gallery.caption, "x")]]',
      '[[at(my.article.uid, "x")]]',
    ])
      expect((await search(q)).status, q).toBe(200)
  })

  it('never answers 500, whatever the query', async () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '"',
      ',',
      ' ',
      'at',
      'any',
      'date.month',
      'document.type',
      'my.article.rating',
      '1',
      '-2.5',
      'true',
      '\\',
      'x',
    )
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 14 }), async (pieces) => {
        const response = await search(pieces.join(''))
        expect([200, 400]).toContain(response.status)
      }),
      { numRuns: 300 },
    )
  })
})
