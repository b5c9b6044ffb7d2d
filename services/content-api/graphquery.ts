import type { ContentStore, Json, JsonObject } from './store'

/**
 * Prismic's `graphQuery` parameter: a GraphQL-like selection of the fields to return, with
 * `...on type { … }` to fetch fields of linked documents and of slices. Hand-written: it is not
 * GraphQL (no operations, no arguments), and only this small grammar is needed.
 *
 *   { article { title, author { ...on author { name } }, gallery { caption },
 *               slices { ...on quote { variation { ...on default { primary { text } } } } } } }
 */

/** A selection: plain fields (with an optional sub-selection) and `...on name` branches. */
export type Selection = { fields: Map<string, Selection | null>; on: Map<string, Selection> }

/** A graphQuery the API cannot read; becomes 400 `parsing-error`. */
export class GraphQueryError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message)
    this.name = 'GraphQueryError'
  }
}

/** Parses a graphQuery into its top-level selection (one field per custom type). */
export function parseGraphQuery(text: string): Selection {
  const tokens = [...text.matchAll(/\.\.\.on\b|[{}(),]|[A-Za-z0-9_-]+|\S/g)].map((m) => ({
    value: m[0],
    at: m.index,
  }))
  let i = 0
  const fail = (message: string): never => {
    throw new GraphQueryError(message, tokens[i]?.at ?? text.length)
  }
  const expect = (value: string) => {
    if (tokens[i]?.value !== value)
      fail(`expected "${value}" but found ${tokens[i] ? `"${tokens[i]!.value}"` : 'the end'}`)
    i += 1
  }
  const name = (): string => {
    const token = tokens[i]
    if (!token || !/^[A-Za-z0-9_-]+$/.test(token.value)) fail('expected a field or type name')
    i += 1
    return token!.value
  }
  const selection = (): Selection => {
    expect('{')
    const out: Selection = { fields: new Map(), on: new Map() }
    while (tokens[i] && tokens[i]!.value !== '}') {
      if (tokens[i]!.value === ',') {
        i += 1
        continue
      }
      if (tokens[i]!.value === '...on') {
        i += 1
        const type = name()
        out.on.set(type, selection())
        continue
      }
      const field = name()
      out.fields.set(field, tokens[i]?.value === '{' ? selection() : null)
    }
    expect('}')
    return out
  }
  const root = selection()
  if (i < tokens.length) fail(`unexpected "${tokens[i]!.value}" after the query`)
  return root
}

const isObject = (value: Json): value is JsonObject =>
  !!value && typeof value === 'object' && !Array.isArray(value)

/** Keeps the fields a selection names, following links and slices into their branches. */
function project(data: JsonObject, selection: Selection, store: ContentStore): JsonObject {
  const out: JsonObject = {}
  for (const [field, sub] of selection.fields) {
    if (!(field in data)) continue
    out[field] = sub ? narrow(data[field]!, sub, store) : data[field]!
  }
  return out
}

function narrow(value: Json, sub: Selection, store: ContentStore): Json {
  if (Array.isArray(value)) {
    // A slice zone: keep the slices a branch names, narrowed by it.
    if (value.some((v) => isObject(v) && typeof v.slice_type === 'string')) {
      return value.flatMap((slice) => {
        if (!isObject(slice) || typeof slice.slice_type !== 'string') return []
        const branch = sub.on.get(slice.slice_type)
        const narrowed = branch && narrowSlice(slice, branch, store)
        return narrowed ? [narrowed] : []
      })
    }
    // A group: narrow each item.
    return value.map((item) => (isObject(item) ? project(item, sub, store) : item))
  }
  if (isObject(value) && value.link_type === 'Document' && typeof value.id === 'string') {
    const target = store.byId.get(value.id)
    const branch = target && sub.on.get(target.doc.type)
    return branch ? { ...value, data: project(target.doc.data, branch, store) } : value
  }
  return value
}

/** A slice as a branch selects it; undefined when the branch names other variations only. */
function narrowSlice(
  slice: JsonObject,
  branch: Selection,
  store: ContentStore,
): JsonObject | undefined {
  const variations = branch.fields.get('variation')
  const variation =
    variations && typeof slice.variation === 'string'
      ? variations.on.get(slice.variation)
      : undefined
  if (variations && !variation) return undefined
  const parts = variation ?? branch
  const out: JsonObject = { ...slice }
  for (const key of ['primary', 'items', 'non-repeat', 'repeat'] as const) {
    const apiKey = key === 'non-repeat' ? 'primary' : key === 'repeat' ? 'items' : key
    if (!parts.fields.has(key)) continue
    const sub = parts.fields.get(key)
    if (!sub) continue
    const value = slice[apiKey]
    if (apiKey === 'primary' && isObject(value)) out.primary = project(value, sub, store)
    if (apiKey === 'items' && Array.isArray(value))
      out.items = value.map((item) => (isObject(item) ? project(item, sub, store) : item))
  }
  if (!parts.fields.has('primary') && !parts.fields.has('non-repeat')) out.primary = {}
  if (!parts.fields.has('items') && !parts.fields.has('repeat')) out.items = []
  return out
}

/** A document's data as a graphQuery selects it; types the query does not name keep all fields. */
export function applyGraphQuery(
  type: string,
  data: JsonObject,
  query: Selection,
  store: ContentStore,
): JsonObject {
  const selection = query.fields.get(type)
  return selection ? project(data, selection, store) : data
}
