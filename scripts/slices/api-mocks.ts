import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { renderSliceMock } from '@prismicio/mocks'
import { compressToEncodedURIComponent } from 'lz-string'

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

/** The site origin the mocks' URLs are absolute on (slicemachine.config.json's simulator URL). */
export const MOCKS_ORIGIN = new URL(
  JSON.parse(readFileSync(path.resolve('slicemachine.config.json'), 'utf8')).localSliceSimulatorURL,
).origin

/** `value` with every string on `MOCKS_ORIGIN` moved to `origin`. */
function rebase(value: unknown, origin: string): unknown {
  if (typeof value === 'string')
    return value.startsWith(`${MOCKS_ORIGIN}/`) ? origin + value.slice(MOCKS_ORIGIN.length) : value
  if (Array.isArray(value)) return value.map((v) => rebase(v, origin))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, origin)]))
  return value
}

/** The slice folders that have mocks, by name (`Hero`, `RichText`…). */
export function slicesWithMocks(): string[] {
  return readdirSync(SLICES)
    .filter((name) => existsSync(path.join(SLICES, name, 'mocks.json')))
    .sort()
}

/**
 * One slice folder's mocks in the Content API's shape, their URLs on `origin` (default: relative
 * to whatever site shows them, as the site's own pages have them).
 */
export function apiSliceMocksOf(name: string, origin = ''): ApiSliceMock[] {
  const model = JSON.parse(readFileSync(path.join(SLICES, name, 'model.json'), 'utf8'))
  const mocks = JSON.parse(readFileSync(path.join(SLICES, name, 'mocks.json'), 'utf8'))
  return mocks.map((mock: { variation: string }) => {
    const slice = rebase(renderSliceMock(model, mock as never), origin) as ApiSliceMock
    return { ...slice, id: `${slice.slice_type}$${slice.variation}-mock`, slice_label: null }
  })
}

/** Every slice's mocks in the Content API's shape. */
export function apiSliceMocks(): ApiSliceMock[] {
  return slicesWithMocks().flatMap((name) => apiSliceMocksOf(name))
}

/** The simulator's path for these slices, with the state Slice Machine's simulator sets. */
export function simulatorPath(slices: unknown[]): string {
  return `/slice-simulator?state=${compressToEncodedURIComponent(JSON.stringify(slices))}`
}

/**
 * A text a visitor sees in this mock's slice: its first filled Text or rich text field (a label,
 * a heading, a paragraph), in the model's field order.
 */
export function visibleText(name: string, variation: string): string {
  const model = JSON.parse(readFileSync(path.join(SLICES, name, 'model.json'), 'utf8')) as {
    variations: { id: string; primary?: Record<string, { type: string }> }[]
  }
  const slice = apiSliceMocksOf(name).find((m) => m.variation === variation)
  const fields = model.variations.find((v) => v.id === variation)?.primary ?? {}
  for (const [id, field] of Object.entries(fields)) {
    const value = slice?.primary[id]
    if (field.type === 'Text' && typeof value === 'string' && value.trim()) return value
    if (field.type === 'StructuredText' && Array.isArray(value) && value[0]?.text)
      return value[0].text
  }
  throw new Error(`${name}/${variation}: the mock has no text to look for`)
}
