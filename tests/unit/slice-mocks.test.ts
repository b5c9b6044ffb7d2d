import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkSliceMocks, checkSliceMocksOf } from '../../services/content-api/slice-mocks'

const read = (name: string, file: string) =>
  JSON.parse(readFileSync(path.join('src', 'slices', name, file), 'utf8'))

describe('content:check on Slice Machine mocks', () => {
  it("passes every slice's mocks.json", () => {
    expect(checkSliceMocks('.')).toEqual([])
  })

  const model = read('Hero', 'model.json')
  const good = read('Hero', 'mocks.json')
  const messages = (mocks: unknown) =>
    checkSliceMocksOf(model, mocks, 'Hero/mocks.json').map((p) => `${p.path}: ${p.message}`)

  it('refuses mocks in the Content API shape, which Slice Machine cannot read', () => {
    const apiShape = [{ slice_type: 'hero', variation: 'default', primary: {}, items: [] }]
    expect(messages(apiShape)[0]).toMatch(/^\[0\]: Slice Machine cannot read this mock/)
  })

  it('refuses a field the model lacks, a field of another kind and a missing variation', () => {
    const [first] = structuredClone(good)
    first.primary.not_a_field = first.primary.eyebrow
    first.primary.speed = first.primary.eyebrow
    expect(messages([first])).toEqual([
      '[0].primary.speed: holds a Text value, but the field is a Number',
      '[0].primary.not_a_field: is not a field of the model',
      '$: no mock of the variation "model"',
    ])
  })

  it("refuses an image Slice Machine's editor cannot parse (a relative URL)", () => {
    const mocks = structuredClone(good)
    mocks[0].primary.poster.origin.url = '/local/prismic/media/images/hero-home.svg'
    expect(messages(mocks)).toEqual([
      `[0].primary.poster: Slice Machine's editor cannot show it: origin.url "/local/prismic/media/images/hero-home.svg" is not an absolute URL`,
    ])
  })
})
