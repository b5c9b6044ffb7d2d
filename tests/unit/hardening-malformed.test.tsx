import { DEFAULT_LOOK } from '@rules/look'
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import path from 'node:path'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Slices } from '@/components/Slices'
import { sanitizeContent } from '@/lib/content/sanitize'
import { SLICE_MODELS, TYPE_MODELS, normalizeDocument } from '@/lib/content/normalize'
import { apiSliceMocks } from '../../scripts/slices/api-mocks'

/**
 * Malformed documents render without throwing: property tests take every slice's valid mocks
 * (in the Content API's shape), mutate them (missing fields, nulls, wrong types, unknown slice types,
 * huge text) and render them server-side through the page's `<Slices>`, after the same
 * `sanitizeContent` the client applies.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Slices that query the content API themselves (async; the forms read `settings`): the e2e suite renders those. */
const QUERYING = new Set(['post_list', 'project_grid', 'contact_form', 'newsletter'])

const dir = path.resolve('src/slices')
const mocks = apiSliceMocks().filter(
  (slice) => !QUERYING.has(slice.slice_type),
) as unknown as Json[]

/** Every path to a value inside `value`. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length ? [prefix] : []
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])))
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]))
  return out
}

type Mutation = { pick: number; kind: string; json: Json }

function mutate(slice: Json, mutation: Mutation): Json {
  const copy = structuredClone(slice)
  const all = paths(copy)
  const target = all[mutation.pick % all.length]
  let parent = copy as Record<string | number, Json>
  for (const key of target.slice(0, -1)) parent = parent[key] as Record<string | number, Json>
  const last = target[target.length - 1]
  const replacement: Record<string, Json> = {
    null: null,
    huge: 'x'.repeat(200_000) + ' <b>huge</b>',
    json: mutation.json,
    number: 42,
    emptyArray: [],
    emptyObject: {},
    unknownSlice: 'no_such_slice',
  }
  if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1)
    else delete parent[last]
  } else if (mutation.kind === 'unknownSlice') {
    ;(copy as Record<string, Json>).slice_type = 'no_such_slice'
  } else parent[last] = replacement[mutation.kind]
  return copy
}

const mutation = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom(
    'delete',
    'null',
    'huge',
    'json',
    'number',
    'emptyArray',
    'emptyObject',
    'unknownSlice',
  ),
  json: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
})

function render(slices: Json[]): string {
  return renderToString(
    createElement(Slices, {
      slices: slices as never,
      context: { lang: 'en-us', title: null, look: DEFAULT_LOOK },
    }),
  )
}

describe('malformed documents', () => {
  it('the valid mocks render (the baseline the mutations start from)', () => {
    expect(render(sanitizeContent(mocks))).toContain('data-slice-type=')
  })

  it('mutated slices (missing fields, nulls, wrong types, unknown slices, huge text) render without throwing', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: mocks.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (index, mutations) => {
          const slice = mutations.reduce((s, m) => mutate(s, m), mocks[index])
          expect(() => render(sanitizeContent([slice]))).not.toThrow()
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a slice zone that is not a list of slices renders nothing rather than throwing', () => {
    for (const zone of [
      null,
      undefined,
      {},
      'text',
      42,
      [null],
      [42],
      [{}],
      [{ slice_type: null }],
    ])
      expect(() => render(sanitizeContent(zone as never))).not.toThrow()
  })

  it('the normalizer knows every slice model and custom type', () => {
    const sliceIds = readdirSync(dir)
      .filter((name) => existsSync(path.join(dir, name, 'model.json')))
      .map((name) => JSON.parse(readFileSync(path.join(dir, name, 'model.json'), 'utf8')).id)
    expect(Object.keys(SLICE_MODELS).sort()).toEqual(sliceIds.sort())
    expect(Object.keys(TYPE_MODELS).sort()).toEqual(readdirSync(path.resolve('customtypes')).sort())
  })

  it("documents with missing, null or mistyped fields come out in their model's shapes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(TYPE_MODELS)),
        fc.dictionary(
          fc.constantFrom(
            'title',
            'slices',
            'body',
            'links',
            'cover',
            'social_links',
            'footer_text',
            'model',
            'date',
          ),
          fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
        ),
        (type, data) => {
          const doc = normalizeDocument({ id: 'x', type, data }) as { data: Record<string, Json> }
          for (const [key, model] of Object.entries(TYPE_MODELS[type])) {
            if (key === 'uid') continue
            const value = doc.data[key]
            if (model.type === 'Text')
              expect(value === null || typeof value === 'string').toBe(true)
            if (['StructuredText', 'Group', 'Slices'].includes(model.type))
              expect(Array.isArray(value)).toBe(true)
            if (model.type === 'Link')
              expect(typeof (value as { link_type?: unknown }).link_type).toBe('string')
            if (model.type === 'Image')
              expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(
                true,
              )
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
