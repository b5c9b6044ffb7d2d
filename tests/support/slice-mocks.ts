import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { renderSliceMock } from '@prismicio/mocks'

/**
 * Every slice's mocks (`src/slices/<Name>/mocks.json`, in Slice Machine's `SharedSliceContent`
 * format) in the Content API's shape, rendered by `@prismicio/mocks`' `renderSliceMock` as Slice
 * Machine renders them for its simulator. Ids are stable: `<slice_type>$<variation>-mock`.
 */

export type ApiSliceMock = {
  id: string
  slice_type: string
  variation: string
  primary: Record<string, unknown>
  items: unknown[]
}

const SLICES = path.resolve('src', 'slices')

/** The slice folders that have mocks, by name (`Hero`, `RichText`…). */
export function slicesWithMocks(): string[] {
  return readdirSync(SLICES)
    .filter((name) => existsSync(path.join(SLICES, name, 'mocks.json')))
    .sort()
}

/** One slice folder's mocks in the Content API's shape. */
export function apiSliceMocksOf(name: string): ApiSliceMock[] {
  const model = JSON.parse(readFileSync(path.join(SLICES, name, 'model.json'), 'utf8'))
  const mocks = JSON.parse(readFileSync(path.join(SLICES, name, 'mocks.json'), 'utf8'))
  return mocks.map((mock: { variation: string }) => {
    const slice = renderSliceMock(model, mock as never) as ApiSliceMock
    return { ...slice, id: `${slice.slice_type}$${slice.variation}-mock`, slice_label: null }
  })
}

/** Every slice's mocks in the Content API's shape. */
export function apiSliceMocks(): ApiSliceMock[] {
  return slicesWithMocks().flatMap(apiSliceMocksOf)
}
