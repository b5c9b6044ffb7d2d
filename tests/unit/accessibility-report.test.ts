import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * docs/accessibility.md is a conformance report an auditor signs: every WCAG 2.2 A and AA
 * criterion once, each with a status in one of four words, a review date and commit, and the
 * same statuses under the clauses of EN 301 549. These checks keep its form; what each row says
 * is the reviewer's.
 */
const root = path.resolve(__dirname, '../..')
const report = readFileSync(path.join(root, 'docs/accessibility.md'), 'utf8')

const STATUSES = ['Supports', 'Partially supports', 'Does not support', 'Not applicable']

/** WCAG 2.2's Level A and AA success criteria, and 4.1.1, which 2.2 removed but 2.1 has. */
const WCAG_22_A_AA = [
  '1.1.1',
  '1.2.1',
  '1.2.2',
  '1.2.3',
  '1.2.4',
  '1.2.5',
  '1.3.1',
  '1.3.2',
  '1.3.3',
  '1.3.4',
  '1.3.5',
  '1.4.1',
  '1.4.2',
  '1.4.3',
  '1.4.4',
  '1.4.5',
  '1.4.10',
  '1.4.11',
  '1.4.12',
  '1.4.13',
  '2.1.1',
  '2.1.2',
  '2.1.4',
  '2.2.1',
  '2.2.2',
  '2.3.1',
  '2.4.1',
  '2.4.2',
  '2.4.3',
  '2.4.4',
  '2.4.5',
  '2.4.6',
  '2.4.7',
  '2.4.11',
  '2.5.1',
  '2.5.2',
  '2.5.3',
  '2.5.4',
  '2.5.7',
  '2.5.8',
  '3.1.1',
  '3.1.2',
  '3.2.1',
  '3.2.2',
  '3.2.3',
  '3.2.4',
  '3.2.6',
  '3.3.1',
  '3.3.2',
  '3.3.3',
  '3.3.4',
  '3.3.7',
  '3.3.8',
  '4.1.2',
  '4.1.3',
]
const PARSING = '4.1.1'
/** The criteria WCAG 2.2 added: EN 301 549 V3.2.1 (WCAG 2.1) has no clause 9 for them. */
const NEW_IN_22 = ['2.4.11', '2.5.7', '2.5.8', '3.2.6', '3.3.7', '3.3.8']
/** The requirements of EN 301 549's clause 12 a website's documentation and support meet. */
const CLAUSE_12 = ['12.1.1', '12.1.2', '12.2.2', '12.2.3', '12.2.4']
/** Known limits that leave a criterion partially supported. */
const PARTIAL = ['1.4.4', '2.3.1', '3.1.2']

interface Table {
  /** The heading of the section the table is in. */
  section: string
  header: string[]
  rows: { line: string; cells: string[] }[]
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

/** Every Markdown table of the report, with the section it is in. */
function tables(text: string): Table[] {
  const out: Table[] = []
  let section = ''
  let current: Table | null = null
  for (const line of text.split('\n')) {
    const heading = /^#{1,6} (.+)$/.exec(line)
    if (heading) section = heading[1]!.trim()
    if (!line.startsWith('|')) {
      current = null
      continue
    }
    if (!current) {
      current = { section, header: cells(line), rows: [] }
      out.push(current)
    } else if (!/^\|[\s|:-]+\|$/.test(line.trim())) {
      current.rows.push({ line, cells: cells(line) })
    }
  }
  return out
}

/** The first words of a row, to name it in a failure: `1.4.4 Resize Text`. */
function rowName(cells: string[]): string {
  return cells[0] ?? '(empty row)'
}

/** A section's text, from its `## ` heading to the next. */
function section(title: string): string | undefined {
  const start = report.search(new RegExp(`^## ${title}\\s*$`, 'm'))
  if (start < 0) return undefined
  const rest = report.slice(start + 3)
  const end = rest.search(/^## /m)
  return end < 0 ? rest : rest.slice(0, end)
}

const all = tables(report)
const criterionTables = all.filter((table) => table.header[0] === 'criterion')
const enTables = all.filter((table) => table.header[0] === 'clause')

/** Each criterion row of the criterion tables: its id, its status, its whole first cell. */
const criteria = criterionTables.flatMap((table) => {
  const status = table.header.indexOf('status')
  return table.rows
    .filter((row) => /^\d/.test(row.cells[0] ?? ''))
    .map((row) => ({
      id: /^(\d+\.\d+\.\d+)/.exec(row.cells[0]!)?.[1] ?? row.cells[0]!,
      name: rowName(row.cells),
      status: status < 0 ? undefined : row.cells[status],
    }))
})
const statusOf = new Map(criteria.map((row) => [row.id, row.status]))

describe('docs/accessibility.md', () => {
  it('finds its tables', () => {
    expect(criterionTables.map((table) => table.section)).toEqual([
      'Perceivable',
      'Operable',
      'Understandable',
      'Robust',
    ])
    expect(enTables.length, 'the EN 301 549 tables').toBeGreaterThanOrEqual(1)
  })

  it('gives every criterion row of every table a status in one of the four words', () => {
    const wrong: string[] = []
    for (const table of all) {
      const status = table.header.indexOf('status')
      for (const row of table.rows) {
        if (!/^\d/.test(row.cells[0] ?? '')) continue
        if (status < 0) {
          wrong.push(`${rowName(row.cells)}: its table (${table.section}) has no status column`)
          continue
        }
        if (row.cells.length !== table.header.length)
          wrong.push(
            `${rowName(row.cells)}: ${row.cells.length} cells, its header ${table.header.length}`,
          )
        const value = row.cells[status] ?? ''
        if (!STATUSES.includes(value))
          wrong.push(`${rowName(row.cells)}: status "${value}", not one of ${STATUSES.join(', ')}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('has every WCAG 2.2 A and AA criterion, and 4.1.1, exactly once', () => {
    expect(WCAG_22_A_AA).toHaveLength(55)
    const expected = [...WCAG_22_A_AA, PARSING]
    const count = new Map<string, number>()
    for (const row of criteria) count.set(row.id, (count.get(row.id) ?? 0) + 1)
    const wrong = [
      ...expected
        .filter((id) => count.get(id) !== 1)
        .map((id) => `${id}: ${count.get(id) ?? 0} rows, not 1`),
      ...[...count.keys()]
        .filter((id) => !expected.includes(id))
        .map((id) => `${id}: not a WCAG 2.2 A or AA criterion`),
    ]
    expect(wrong).toEqual([])
  })

  it('says Partially supports where its known limits say so', () => {
    for (const id of PARTIAL)
      expect(statusOf.get(id), `the row of ${id}`).toBe('Partially supports')
  })

  it('names the review: its date, its commit and the overall status', () => {
    const review = section('Review')
    expect(review, 'a "## Review" section').toBeDefined()
    const date = /^- \*\*Reviewed:\*\* (\S+)\s*$/m.exec(review!)?.[1]
    expect(date, 'a "- **Reviewed:** YYYY-MM-DD" line').toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), 'a real date').toBe(date)
    const commit = /^- \*\*Commit reviewed:\*\* (\S+)\s*$/m.exec(review!)?.[1]
    expect(commit, 'a "- **Commit reviewed:** <hash>" line').toMatch(/^[0-9a-f]{7,40}$/)
    const overall =
      /^- \*\*Overall status:\*\* (Fully conforms|Partially conforms|Does not conform) to WCAG 2\.2 Level AA\b/m.exec(
        review!,
      )?.[1]
    expect(overall, 'a "- **Overall status:** … to WCAG 2.2 Level AA" line').toBeDefined()
  })

  it('gives an overall status the rows bear out', () => {
    const overall = /\*\*Overall status:\*\* (\w+ \w+)/.exec(report)?.[1]
    const short = criteria
      .filter((row) => row.status === 'Partially supports' || row.status === 'Does not support')
      .map((row) => row.id)
    if (short.length === 0)
      expect(overall, 'every row supports or does not apply').toBe('Fully conforms')
    else expect(overall, `rows that fall short: ${short.join(', ')}`).not.toBe('Fully conforms')
  })

  it('maps each clause 9 of EN 301 549 to its WCAG criterion, with the same status', () => {
    const wrong: string[] = []
    const clauses = new Map<string, number>()
    for (const table of enTables) {
      const status = table.header.indexOf('status')
      for (const row of table.rows) {
        const clause = /^9\.(\d+\.\d+\.\d+)\b/.exec(row.cells[0] ?? '')
        if (!clause) continue
        const id = clause[1]!
        clauses.set(id, (clauses.get(id) ?? 0) + 1)
        const named = row.cells.slice(1).some((cell) => cell.startsWith(`${id} `))
        if (!named) wrong.push(`${rowName(row.cells)}: names no WCAG criterion ${id}`)
        if (!statusOf.has(id)) wrong.push(`${rowName(row.cells)}: no row of WCAG ${id} above`)
        else if (row.cells[status] !== statusOf.get(id))
          wrong.push(
            `${rowName(row.cells)}: "${row.cells[status]}", WCAG ${id} says "${statusOf.get(id)}"`,
          )
      }
    }
    const expected = [...WCAG_22_A_AA, PARSING].filter((id) => !NEW_IN_22.includes(id))
    expect(expected).toHaveLength(50)
    for (const id of expected)
      if (clauses.get(id) !== 1) wrong.push(`9.${id}: ${clauses.get(id) ?? 0} rows, not 1`)
    for (const id of NEW_IN_22)
      if (clauses.has(id)) wrong.push(`9.${id}: WCAG 2.2 only, no clause in EN 301 549 V3.2.1`)
    expect(wrong).toEqual([])
  })

  it('has the rows of EN 301 549 clause 12, each with a status', () => {
    const rows = enTables.flatMap((table) =>
      table.rows.map((row) => ({
        cells: row.cells,
        status: row.cells[table.header.indexOf('status')],
      })),
    )
    for (const clause of CLAUSE_12) {
      const row = rows.find((r) =>
        new RegExp(`^${clause.replace(/\./g, '\\.')}\\b`).test(r.cells[0] ?? ''),
      )
      expect(row, `a row for clause ${clause}`).toBeDefined()
      expect(STATUSES, `the status of clause ${clause}`).toContain(row!.status)
    }
  })

  it('says how it was tested, and what was not tested by hand', () => {
    const method = section('Method')
    expect(method, 'a "## Method" section').toBeDefined()
    for (const word of ['axe-core', 'virtual-screen-reader', 'CDP', 'engines suite'])
      expect(method, `the Method names ${word}`).toContain(word)
    for (const reader of ['NVDA', 'JAWS', 'VoiceOver', 'TalkBack'])
      expect(method, `the Method says ${reader} was not used`).toContain(reader)
  })

  it('names the version of each browser and tool', () => {
    const browsers = section('Browsers and assistive technology')
    expect(browsers, 'a "## Browsers and assistive technology" section').toBeDefined()
    for (const name of [
      'Chromium',
      'Firefox ESR',
      'WebKitGTK',
      'axe-core',
      '@axe-core/playwright',
      '@guidepup/virtual-screen-reader',
    ]) {
      const row = browsers!.split('\n').find((line) => cells(line)[0] === name)
      expect(row, `a row for ${name}`).toBeDefined()
      expect(cells(row!).slice(1).join(' '), `the version of ${name}`).toMatch(/\d/)
    }
    expect(browsers).toMatch(/Playwright[^\n]*\d+\.\d+/)
    expect(browsers, 'says no real screen reader was used').toMatch(/no real screen reader/i)
  })

  it('matches the statement published on the site: the same commit and date, in every language', () => {
    const commit = report.match(/\*\*Commit reviewed:\*\* `?([0-9a-f]{7,40})/)?.[1]
    const date = report.match(/\*\*Reviewed:\*\* (\d{4}-\d{2}-\d{2})/)?.[1]
    expect(commit).toBeDefined()
    const day = Number(date!.slice(8, 10))
    const folder = path.join(root, 'content/documents/page/accessibility')
    for (const file of readdirSync(folder)) {
      const text = readFileSync(path.join(folder, file), 'utf8')
      expect(text, `${file} names the commit reviewed`).toContain(commit)
      expect(text, `${file} gives the review's day`).toMatch(new RegExp(`\\b${day}\\b`))
      expect(text, `${file} gives the review's year`).toContain(date!.slice(0, 4))
    }
  })
})
