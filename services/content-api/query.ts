import type { Filter, FilterValue } from './filters'
import {
  parseTimestamp,
  type Json,
  type JsonObject,
  type StoredDocument,
  type ContentStore,
} from './store'

/**
 * Evaluates parsed filters and orderings against stored documents, the way Prismic's search
 * does. Comparisons are over the raw field values: strings, numbers, booleans, dates, link ids.
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** A filter whose arguments do not fit the path or the filter, reported as 400. */
export class FilterValueError extends Error {
  constructor(
    message: string,
    readonly filter: Filter,
  ) {
    super(message)
    this.name = 'FilterValueError'
  }
}

/**
 * The fields a filter may name, by custom type: each field with the names of its subfields when
 * it is a group (undefined otherwise). Built from the models, or from the documents without them.
 */
export type FilterSchema = Map<string, Map<string, Set<string> | undefined>>

/** The `document.*` paths Prismic filters on. */
const DOCUMENT_PATHS = new Set([
  'document',
  'document.id',
  'document.type',
  'document.tags',
  'document.lang',
  'document.first_publication_date',
  'document.last_publication_date',
])

/**
 * True when `path` names a field the repository has: a `document.*` path, or `my.<type>.<field>`
 * (and `.<subfield>` of a group) of a known type. Prismic answers any other path with 400
 * "unexpected field", so a typo fails here as it would in production. Paths deeper than a
 * group's subfield are not checked.
 */
export function isKnownPath(path: string, schema: FilterSchema): boolean {
  if (path.startsWith('document')) return DOCUMENT_PATHS.has(path)
  const [root, type, field, sub] = path.split('.')
  if (root !== 'my' || !type || !field) return false
  const fields = schema.get(type)
  if (!fields) return false
  if (field === 'uid' && !sub) return true
  if (!fields.has(field)) return false
  const subfields = fields.get(field)
  return !sub || !subfields || subfields.has(sub)
}

/** The values at `path` in a document: several for group and repeatable fields. */
export function valuesAt(entry: StoredDocument, path: string): Json[] {
  return compilePath(path)(entry)
}

/** Reads the values at `path`, with the path split once rather than once per document. */
export function compilePath(path: string): (entry: StoredDocument) => Json[] {
  switch (path) {
    case 'document.id':
      return (entry) => [entry.doc.id]
    case 'document.type':
      return (entry) => [entry.doc.type]
    case 'document.tags':
      return (entry) => entry.doc.tags
    case 'document.lang':
      return (entry) => [entry.doc.lang]
    case 'document.first_publication_date':
      return (entry) => [entry.doc.first_publication_date]
    case 'document.last_publication_date':
      return (entry) => [entry.doc.last_publication_date]
  }
  const [, type, ...fields] = path.split('.')
  if (fields.length === 1 && fields[0] === 'uid')
    return (entry) => (entry.doc.type !== type || entry.doc.uid === null ? [] : [entry.doc.uid])
  if (fields.length === 1) {
    const field = fields[0]!
    return (entry) => {
      if (entry.doc.type !== type) return []
      const value = entry.doc.data[field]
      if (value === undefined) return []
      return Array.isArray(value) && !isRichText(value) ? value : [value]
    }
  }
  return (entry) => {
    if (entry.doc.type !== type) return []
    let current: Json[] = [entry.doc.data]
    for (const field of fields) {
      const next: Json[] = []
      for (const value of current) {
        if (Array.isArray(value)) {
          for (const item of value) {
            if (item && typeof item === 'object' && !Array.isArray(item) && field in item)
              next.push(item[field]!)
          }
        } else if (value && typeof value === 'object' && field in value) {
          next.push((value as JsonObject)[field]!)
        }
      }
      current = next
    }
    return current.flatMap((value) =>
      Array.isArray(value) && !isRichText(value) ? value : [value],
    )
  }
}

/** True when `path` restricts results to one custom type (`my.T.*`). */
export function typeOfPath(path: string | undefined): string | undefined {
  return path?.startsWith('my.') ? path.split('.')[1] : undefined
}

function isRichText(value: Json[]): boolean {
  return (
    value.length > 0 &&
    value.every(
      (block) =>
        !!block &&
        typeof block === 'object' &&
        'type' in (block as object) &&
        'text' in (block as object),
    )
  )
}

/** A comparable scalar for a field value: link → id, rich text → text, select → string. */
function scalar(value: Json): string | number | boolean | null {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    return isRichText(value)
      ? value.map((b) => String((b as JsonObject).text ?? '')).join(' ')
      : null
  }
  if (typeof value.id === 'string' && 'link_type' in value) return value.id
  if (typeof value.url === 'string') return value.url
  return null
}

function isEmpty(value: Json): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) {
    if (value.length === 0) return true
    if (isRichText(value)) return value.every((b) => !String((b as JsonObject).text ?? '').trim())
    return false
  }
  if (typeof value === 'object') {
    if (value.link_type === 'Any') return true
    if ('url' in value && (value.url === null || value.url === undefined)) return true
    return Object.keys(value).length === 0
  }
  return false
}

function equals(value: Json, expected: FilterValue): boolean {
  if (typeof value === 'string' && typeof expected === 'string') return value === expected
  const actual = scalar(value)
  if (actual === null) return false
  if (typeof expected === 'number') {
    if (typeof actual === 'number') return actual === expected
    const ms = typeof actual === 'string' ? toMs(actual) : NaN
    return !Number.isNaN(ms) && ms === expected
  }
  if (typeof expected === 'boolean') return actual === expected
  return String(actual) === String(expected)
}

/** Epoch ms for a date field value (`2026-05-01`), a timestamp, or a filter argument. */
export function toMs(value: FilterValue | Json): number {
  if (typeof value === 'number') return value
  if (typeof value !== 'string') return NaN
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(`${value}T00:00:00Z`)
  return parseTimestamp(value)
}

function dateParts(value: Json): Date[] {
  const ms = toMs(value as FilterValue)
  return Number.isNaN(ms) ? [] : [new Date(ms)]
}

function weekday(arg: FilterValue, filter: Filter): number {
  if (typeof arg === 'number' && arg >= 1 && arg <= 7) return arg % 7
  const index = WEEKDAYS.indexOf(String(arg).toLowerCase())
  if (index < 0)
    throw new FilterValueError(
      `${filter.name} expects a day such as "monday" or 1 to 7, got ${JSON.stringify(arg)}`,
      filter,
    )
  return index
}

function month(arg: FilterValue, filter: Filter): number {
  if (typeof arg === 'number' && arg >= 1 && arg <= 12) return arg - 1
  const index = MONTHS.indexOf(String(arg).toLowerCase())
  if (index < 0)
    throw new FilterValueError(
      `${filter.name} expects a month such as "may" or 1 to 12, got ${JSON.stringify(arg)}`,
      filter,
    )
  return index
}

function num(arg: FilterValue | undefined, filter: Filter): number {
  if (typeof arg !== 'number')
    throw new FilterValueError(
      `${filter.name} expects a number, got ${JSON.stringify(arg)}`,
      filter,
    )
  return arg
}

function dateArg(arg: FilterValue | undefined, filter: Filter): number {
  const ms = arg === undefined ? NaN : toMs(arg)
  if (Number.isNaN(ms))
    throw new FilterValueError(
      `${filter.name} expects a date (epoch milliseconds or ISO 8601), got ${JSON.stringify(arg)}`,
      filter,
    )
  return ms
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

export type Matcher = (entry: StoredDocument) => boolean

/**
 * The words of every document of a store, made on the first full-text query and kept with the
 * store: each word once, with the positions (in `store.documents`) of the documents holding it.
 */
type TokenIndex = { postings: Map<string, Int32Array>; positions: Map<StoredDocument, number> }

const tokenIndexes = new WeakMap<ContentStore, TokenIndex>()

function tokenIndex(store: ContentStore): TokenIndex {
  const known = tokenIndexes.get(store)
  if (known) return known
  const lists = new Map<string, number[]>()
  const positions = new Map<StoredDocument, number>()
  store.documents.forEach((entry, position) => {
    positions.set(entry, position)
    for (const word of new Set(words(entry.text))) {
      const list = lists.get(word)
      if (list) list.push(position)
      else lists.set(word, [position])
    }
  })
  const postings = new Map([...lists].map(([word, list]) => [word, Int32Array.from(list)]))
  const index = { postings, positions }
  tokenIndexes.set(store, index)
  return index
}

/**
 * `fulltext(document, text)`: each term of the text appears in the document's text, inside a word
 * or as one (a term is a run of letters and digits, so it can only appear inside one such run of
 * the document's text: the same answer as searching the text itself). The terms are looked up
 * among the store's words, not in every document, so a search costs the size of the vocabulary
 * and of the matches rather than the bytes of every document.
 */
function fullTextMatcher(store: ContentStore, terms: string[]): Matcher {
  if (terms.length === 0) return () => true
  const { postings, positions } = tokenIndex(store)
  let matching: Uint8Array | undefined
  for (const term of terms) {
    const hits = new Uint8Array(store.documents.length)
    for (const [word, list] of postings) {
      if (!word.includes(term)) continue
      for (let i = 0; i < list.length; i++) hits[list[i]!] = 1
    }
    if (matching) for (let i = 0; i < hits.length; i++) matching[i] = matching[i]! & hits[i]!
    else matching = hits
  }
  const found = matching!
  return (entry) => {
    const position = positions.get(entry)
    return position !== undefined && found[position] === 1
  }
}

/** Compiles one filter into a predicate over documents (validating its arguments once). */
export function compileFilter(filter: Filter, store: ContentStore): Matcher {
  const path = filter.path ?? ''
  const [a0, a1, a2] = filter.args
  const values = compilePath(path)
  const onDates =
    (test: (d: Date) => boolean): Matcher =>
    (entry) =>
      values(entry).some((v) => dateParts(v).some(test))
  switch (filter.name) {
    case 'at':
      if (Array.isArray(a0)) {
        if (path !== 'document.tags')
          throw new FilterValueError(
            `at takes a list only on document.tags, not on ${path}`,
            filter,
          )
        return (entry) => a0.every((tag) => entry.doc.tags.includes(String(tag)))
      }
      return (entry) => values(entry).some((v) => equals(v, a0!))
    case 'not':
      if (Array.isArray(a0)) {
        if (path !== 'document.tags')
          throw new FilterValueError(
            `not takes a list only on document.tags, not on ${path}`,
            filter,
          )
        return (entry) => !a0.every((tag) => entry.doc.tags.includes(String(tag)))
      }
      return (entry) => !values(entry).some((v) => equals(v, a0!))
    case 'any':
    case 'in': {
      if (!Array.isArray(a0))
        throw new FilterValueError(
          `${filter.name} expects a list of values, got ${JSON.stringify(a0)}`,
          filter,
        )
      if (filter.name === 'in' && !(path === 'document.id' || /^my\.[^.]+\.uid$/.test(path))) {
        throw new FilterValueError(
          `in works on document.id or my.<type>.uid, not on ${path}`,
          filter,
        )
      }
      const strings = new Set(a0.filter((v) => typeof v === 'string'))
      if (path === 'document.tags') {
        // The commonest filter of all (getByTag): a plain loop, no closures per tag.
        return (entry) => {
          const tags = entry.doc.tags
          for (let i = 0; i < tags.length; i++) if (strings.has(tags[i]!)) return true
          return false
        }
      }
      return (entry) =>
        values(entry).some((v) =>
          typeof v === 'string' && strings.size === a0.length
            ? strings.has(v)
            : a0.some((expected) => equals(v, expected)),
        )
    }
    case 'fulltext': {
      if (typeof a0 !== 'string')
        throw new FilterValueError(`fulltext expects a "string", got ${JSON.stringify(a0)}`, filter)
      const terms = words(a0)
      if (path === 'document') return fullTextMatcher(store, terms)
      return (entry) => {
        const text: string[] = []
        for (const v of values(entry)) {
          const s = scalar(v)
          if (typeof s === 'string') text.push(s.toLowerCase())
        }
        const joined = text.join(' ')
        return terms.every((term) => joined.includes(term))
      }
    }
    case 'has':
      return (entry) => values(entry).some((v) => !isEmpty(v))
    case 'missing':
      return (entry) =>
        (typeOfPath(path) === undefined || entry.doc.type === typeOfPath(path)) &&
        !values(entry).some((v) => !isEmpty(v))
    case 'similar': {
      const source = store.byId.get(String(a0))
      const maxFrequency = num(a1, filter)
      if (!source) return () => false
      const documentFrequency = new Map<string, number>()
      const sourceTerms = new Set(words(source.text).filter((w) => w.length > 2))
      for (const entry of store.documents) {
        for (const term of new Set(words(entry.text))) {
          if (sourceTerms.has(term))
            documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1)
        }
      }
      const relevant = [...sourceTerms].filter(
        (t) => (documentFrequency.get(t) ?? 0) <= maxFrequency,
      )
      return (entry) => entry !== source && relevant.some((term) => entry.text.includes(term))
    }
    case 'number.lt': {
      const limit = num(a0, filter)
      return (entry) => values(entry).some((v) => typeof v === 'number' && v < limit)
    }
    case 'number.gt': {
      const limit = num(a0, filter)
      return (entry) => values(entry).some((v) => typeof v === 'number' && v > limit)
    }
    case 'number.inRange': {
      const low = num(a0, filter)
      const high = num(a1, filter)
      return (entry) => values(entry).some((v) => typeof v === 'number' && v >= low && v <= high)
    }
    case 'date.after': {
      const ms = dateArg(a0, filter)
      return onDates((d) => d.getTime() > ms)
    }
    case 'date.before': {
      const ms = dateArg(a0, filter)
      return onDates((d) => d.getTime() < ms)
    }
    case 'date.between': {
      const from = dateArg(a0, filter)
      const to = dateArg(a1, filter)
      return onDates((d) => d.getTime() >= from && d.getTime() <= to)
    }
    case 'date.day-of-month': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCDate() === n)
    }
    case 'date.day-of-month-after': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCDate() > n)
    }
    case 'date.day-of-month-before': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCDate() < n)
    }
    case 'date.day-of-week': {
      const day = weekday(a0!, filter)
      return onDates((d) => d.getUTCDay() === day)
    }
    case 'date.day-of-week-after': {
      // Monday is the first day of Prismic's week, Sunday the last.
      const day = (weekday(a0!, filter) + 6) % 7
      return onDates((d) => (d.getUTCDay() + 6) % 7 > day)
    }
    case 'date.day-of-week-before': {
      const day = (weekday(a0!, filter) + 6) % 7
      return onDates((d) => (d.getUTCDay() + 6) % 7 < day)
    }
    case 'date.month': {
      const m = month(a0!, filter)
      return onDates((d) => d.getUTCMonth() === m)
    }
    case 'date.month-after': {
      const m = month(a0!, filter)
      return onDates((d) => d.getUTCMonth() > m)
    }
    case 'date.month-before': {
      const m = month(a0!, filter)
      return onDates((d) => d.getUTCMonth() < m)
    }
    case 'date.year': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCFullYear() === n)
    }
    case 'date.hour': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCHours() === n)
    }
    case 'date.hour-after': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCHours() > n)
    }
    case 'date.hour-before': {
      const n = num(a0, filter)
      return onDates((d) => d.getUTCHours() < n)
    }
    case 'geopoint.near': {
      const lat = num(a0, filter)
      const lng = num(a1, filter)
      const km = num(a2, filter)
      return (entry) =>
        values(entry).some((v) => {
          const d = geoDistance(v, lat, lng)
          return d !== undefined && d <= km
        })
    }
  }
  throw new FilterValueError(`unknown filter ${filter.name}`, filter)
}

/** Kilometres from a GeoPoint field value to (lat, lng), by the haversine formula. */
export function geoDistance(value: Json, lat: number, lng: number): number | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const { latitude, longitude } = value as { latitude?: unknown; longitude?: unknown }
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return undefined
  const rad = Math.PI / 180
  const dLat = (latitude - lat) * rad
  const dLng = (longitude - lng) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(lat * rad) * Math.cos(latitude * rad) * Math.sin(dLng / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
}

export type Ordering = { path: string; desc: boolean }

/** Reads `[my.post.date desc,document.first_publication_date]` (brackets optional). */
export function parseOrderings(value: string): Ordering[] {
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '')
  return inner
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [path, direction] = part.split(/\s+/)
      return { path: path!, desc: direction?.toLowerCase() === 'desc' }
    })
}

function sortKey(entry: StoredDocument, path: string): string | number | undefined {
  // Keys are computed once per document and path: documents never change after loading.
  if (entry.sortKeys.has(path)) return entry.sortKeys.get(path)
  const key = computeSortKey(entry, path)
  entry.sortKeys.set(path, key)
  return key
}

function computeSortKey(entry: StoredDocument, path: string): string | number | undefined {
  if (path === 'document.first_publication_date') return entry.firstPublished
  if (path === 'document.last_publication_date') return entry.lastPublished
  const value = valuesAt(entry, path)[0]
  if (value === undefined) return undefined
  const s = scalar(value)
  if (s === null) return undefined
  if (typeof s === 'number') return s
  if (typeof s === 'boolean') return s ? 1 : 0
  const ms = /^\d{4}-\d{2}-\d{2}/.test(s) ? toMs(s) : NaN
  return Number.isNaN(ms) ? s.toLowerCase() : ms
}

/** Sorts in place by the orderings; documents without a value come last, ties keep id order. */
export function sortDocuments(entries: StoredDocument[], orderings: Ordering[]): StoredDocument[] {
  const keyed = entries.map((entry) => ({
    entry,
    keys: orderings.map((o) => sortKey(entry, o.path)),
  }))
  keyed.sort((a, b) => {
    for (let i = 0; i < orderings.length; i++) {
      const x = a.keys[i]
      const y = b.keys[i]
      if (x === y) continue
      if (x === undefined) return 1
      if (y === undefined) return -1
      // Numbers before strings; strings (already lower-cased) by code unit, which is fast and
      // the same on every machine, unlike localeCompare.
      const cmp =
        typeof x === 'number' && typeof y === 'number'
          ? x - y
          : typeof x === 'number'
            ? -1
            : typeof y === 'number'
              ? 1
              : x < y
                ? -1
                : 1
      if (cmp !== 0) return orderings[i]!.desc ? -cmp : cmp
    }
    return a.entry.doc.id < b.entry.doc.id ? -1 : a.entry.doc.id > b.entry.doc.id ? 1 : 0
  })
  return keyed.map((k) => k.entry)
}
