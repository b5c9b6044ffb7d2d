/**
 * The Content API's filter language (`q=[[at(document.type, "page")]]`), parsed by hand: no
 * library reads Prismic's predicate syntax, and the official client only writes it. The parser
 * accepts exactly what `@prismicio/client`'s `filter.*` helpers produce, plus several filters in
 * one `q` (`[[at(…)][any(…)]]`) as Prismic does.
 */

export type FilterValue = string | number | boolean | FilterValue[]

export type Filter = {
  name: string
  /** The path argument (`document.type`, `my.post.date`), absent for `similar`. */
  path?: string
  args: FilterValue[]
  /** The filter's own source text, for error messages. */
  source: string
}

/** A query the API cannot read; becomes 400 `parsing-error` with `pos`. */
export class FilterParseError extends Error {
  constructor(
    message: string,
    readonly query: string,
    readonly column: number,
  ) {
    super(message)
    this.name = 'FilterParseError'
  }
}

const PATH_CHAR = /[A-Za-z0-9_.\-]/
const NAME_CHAR = /[A-Za-z0-9_.\-]/

const PATH_FILTERS = new Set([
  'at',
  'not',
  'any',
  'in',
  'fulltext',
  'has',
  'missing',
  'geopoint.near',
  'number.lt',
  'number.gt',
  'number.inRange',
  'date.after',
  'date.before',
  'date.between',
  'date.day-of-month',
  'date.day-of-month-after',
  'date.day-of-month-before',
  'date.day-of-week',
  'date.day-of-week-after',
  'date.day-of-week-before',
  'date.month',
  'date.month-after',
  'date.month-before',
  'date.year',
  'date.hour',
  'date.hour-after',
  'date.hour-before',
])

/** How many arguments after the path each filter takes. */
const ARITY: Record<string, number> = {
  at: 1,
  not: 1,
  any: 1,
  in: 1,
  fulltext: 1,
  has: 0,
  missing: 0,
  similar: 2,
  'geopoint.near': 3,
  'number.lt': 1,
  'number.gt': 1,
  'number.inRange': 2,
  'date.after': 1,
  'date.before': 1,
  'date.between': 2,
}

/** Parses one `q` parameter into its filters. */
export function parseQuery(query: string): Filter[] {
  const parser = new Parser(query)
  return parser.parseQuery()
}

class Parser {
  private pos = 0
  constructor(private readonly text: string) {}

  parseQuery(): Filter[] {
    this.skipSpace()
    this.expect('[')
    const filters: Filter[] = []
    this.skipSpace()
    while (this.peek() === '[') {
      filters.push(this.parseFilter())
      this.skipSpace()
    }
    this.expect(']')
    this.skipSpace()
    if (this.pos < this.text.length)
      this.fail(`unexpected "${this.text[this.pos]}" after the query`)
    return filters
  }

  private parseFilter(): Filter {
    const start = this.pos
    this.expect('[')
    this.skipSpace()
    // Prismic's older syntax prefixes a filter with `:d = ` (as in document hrefs).
    if (this.text.startsWith(':d', this.pos)) {
      this.pos += 2
      this.skipSpace()
      this.expect('=')
      this.skipSpace()
    }
    const name = this.readWhile(NAME_CHAR)
    if (!name) this.fail('expected a filter name such as at, any or fulltext')
    const known = name === 'similar' || PATH_FILTERS.has(name)
    if (!known) this.fail(`unknown filter "${name}"`, start + 1)
    this.skipSpace()
    this.expect('(')
    this.skipSpace()
    let path: string | undefined
    if (name !== 'similar') {
      path = this.readWhile(PATH_CHAR)
      if (!path) this.fail(`expected a path such as document.type as the first argument of ${name}`)
      if (!isValidPath(path)) this.fail(`unexpected field '${path}'`, this.pos - path.length)
    }
    const args: FilterValue[] = []
    this.skipSpace()
    while (
      this.peek() === ',' ||
      (name === 'similar' && args.length === 0 && this.peek() !== ')')
    ) {
      if (this.peek() === ',') this.pos += 1
      this.skipSpace()
      args.push(this.parseValue())
      this.skipSpace()
    }
    this.expect(')')
    this.skipSpace()
    this.expect(']')
    const expected = ARITY[name] ?? 1
    if (args.length !== expected) {
      this.fail(
        `${name} takes ${expected} argument${expected === 1 ? '' : 's'} after its path, got ${args.length}`,
        start,
      )
    }
    return { name, path, args, source: this.text.slice(start, this.pos) }
  }

  private parseValue(): FilterValue {
    const c = this.peek()
    if (c === '"') return this.parseString()
    if (c === '[') {
      this.pos += 1
      const values: FilterValue[] = []
      this.skipSpace()
      if (this.peek() === ']') {
        this.pos += 1
        return values
      }
      for (;;) {
        this.skipSpace()
        values.push(this.parseValue())
        this.skipSpace()
        if (this.peek() === ',') {
          this.pos += 1
          continue
        }
        this.expect(']')
        return values
      }
    }
    const word = this.readWhile(/[A-Za-z0-9_.+\-:]/)
    if (word === 'true') return true
    if (word === 'false') return false
    if (word !== '' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(word)) return Number(word)
    if (word !== '') return word
    this.fail('expected a value: a "string", a number, true, false or [a, list]')
  }

  private parseString(): string {
    this.expect('"')
    let out = ''
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]
      if (c === '\\') {
        const next = this.text[this.pos + 1]
        if (next === undefined) break
        out += next
        this.pos += 2
        continue
      }
      if (c === '"') {
        this.pos += 1
        return out
      }
      out += c
      this.pos += 1
    }
    this.fail('unterminated string')
  }

  private peek(): string | undefined {
    return this.text[this.pos]
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) {
      const got = this.pos < this.text.length ? `"${this.text[this.pos]}"` : 'the end of the query'
      this.fail(`expected "${char}" but found ${got}`)
    }
    this.pos += 1
  }

  private readWhile(pattern: RegExp): string {
    const start = this.pos
    while (this.pos < this.text.length && pattern.test(this.text[this.pos]!)) this.pos += 1
    return this.text.slice(start, this.pos)
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos += 1
  }

  private fail(message: string, at = this.pos): never {
    throw new FilterParseError(message, this.text, at)
  }
}

const DOCUMENT_PATHS = new Set([
  'document',
  'document.id',
  'document.type',
  'document.tags',
  'document.first_publication_date',
  'document.last_publication_date',
  'document.lang',
])

/** True for `document.*` paths Prismic knows and for `my.<type>.<field>[.<subfield>…]`. */
export function isValidPath(path: string): boolean {
  if (DOCUMENT_PATHS.has(path)) return true
  return /^my\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(path)
}
