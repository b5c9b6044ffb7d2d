// The "Content at scale" section of bench/report.md, from bench/scale.json (`npm run bench:scale`).
// `npm run bench` puts it in the report it writes; `npm run bench:scale` replaces the section in
// the report that is there, so the table is current without running every other benchmark.
import { writeSection } from './report-section.mjs'

const HEADING = '## Content at scale'

const ms = (value) => (value === undefined ? '–' : `${value} ms`)
const latency = (cannon) =>
  cannon
    ? `${cannon.p50Ms} / ${cannon.p97_5Ms} / ${cannon.p99Ms}${cannon.non2xx ? ` (${cannon.non2xx} non-2xx)` : ''}`
    : '–'

/** The figures a row shows, by column. */
const COLUMNS = [
  ['documents', (f) => f.documents],
  ['build', (f) => `${(f.buildMs / 1000).toFixed(1)} s`],
  ['build peak (all processes)', (f) => `${f.buildPeakMB} MB`],
  ['build folder', (f) => `${f.buildFolderMB} MB`],
  ['start → ready', (f) => ms(f.readyMs)],
  [
    'first page after ready (not prerendered)',
    (f) => `${ms(f.firstOnDemand?.ms)} (${f.firstOnDemand?.status})`,
  ],
  ['next on-demand page', (f) => ms(f.secondOnDemand?.ms)],
  [
    'first visits, not prerendered: p95 (max)',
    (f) => (f.firstVisits ? `${f.firstVisits.p95Ms} ms (${f.firstVisits.maxMs})` : '–'),
  ],
  ['journal ?page=N, first', (f) => `${ms(f.deepJournal?.ms)} (N=${f.deepJournal?.page})`],
  ['index p50/p97.5/p99', (f) => latency(f.load?.index)],
  ['search p50/p97.5/p99', (f) => latency(f.load?.search)],
  ['search, a new query each request', (f) => latency(f.load?.newSearches)],
  ['post p50/p97.5/p99', (f) => latency(f.load?.post)],
  ['sitemap p50/p97.5/p99', (f) => latency(f.load?.sitemap)],
  ['server RSS after ready', (f) => `${f.serverRssMB} MB`],
  ['content API load', (f) => ms(f.contentApi?.loadMs)],
  ['content API RSS', (f) => (f.contentApi?.rssMB ? `${f.contentApi.rssMB} MB` : '–')],
  ['filtered page p95', (f) => ms(f.contentApi?.filtered?.p95)],
  ['full-text page p95', (f) => ms(f.contentApi?.fulltext?.p95)],
  ['load average', (f) => f.loadAverage?.join(' ')],
]

/** How a row grows from the smallest generated folder to the largest one of a run. */
function growth(sizes, get) {
  const generated = sizes.filter((f) => typeof f.documents === 'number')
  if (generated.length < 2) return '–'
  const [a, b] = [generated[0], generated.at(-1)]
  const [x, y] = [get(a), get(b)]
  return typeof x === 'number' && typeof y === 'number' && x > 0 ? `×${(y / x).toFixed(2)}` : '–'
}

/** Numbers behind the rows that grow (same order as COLUMNS; undefined: not a number). */
const NUMBERS = {
  build: (f) => f.buildMs,
  'build peak (all processes)': (f) => f.buildPeakMB,
  'build folder': (f) => f.buildFolderMB,
  'start → ready': (f) => f.readyMs,
  'first page after ready (not prerendered)': (f) => f.firstOnDemand?.ms,
  'next on-demand page': (f) => f.secondOnDemand?.ms,
  'first visits, not prerendered: p95 (max)': (f) => f.firstVisits?.p95Ms,
  'journal ?page=N, first': (f) => f.deepJournal?.ms,
  'index p50/p97.5/p99': (f) => f.load?.index?.p99Ms,
  'search p50/p97.5/p99': (f) => f.load?.search?.p99Ms,
  'search, a new query each request': (f) => f.load?.newSearches?.p99Ms,
  'post p50/p97.5/p99': (f) => f.load?.post?.p99Ms,
  'sitemap p50/p97.5/p99': (f) => f.load?.sitemap?.p99Ms,
  'server RSS after ready': (f) => f.serverRssMB,
  'content API load': (f) => f.contentApi?.loadMs,
  'content API RSS': (f) => f.contentApi?.rssMB,
  'filtered page p95': (f) => f.contentApi?.filtered?.p95,
  'full-text page p95': (f) => f.contentApi?.fulltext?.p95,
}

/** One run's table: a row per figure, a column per size, and how the figure grows. */
function table(run) {
  const generated = run.sizes.filter((f) => typeof f.documents === 'number')
  const span =
    generated.length >= 2 ? ` ${generated[0].documents} → ${generated.at(-1).documents}` : ''
  const header = `| figure | ${run.sizes.map((f) => f.documents).join(' | ')} | growth${span} |`
  const rule = `|---|${run.sizes.map(() => '---').join('|')}|---|`
  const rows = COLUMNS.filter(([name]) => name !== 'documents').map(([name, get]) => {
    const number = NUMBERS[name]
    const grows = number ? growth(run.sizes, number) : ''
    return `| ${name} | ${run.sizes.map((f) => get(f) ?? '–').join(' | ')} | ${grows} |`
  })
  const sample = run.sizes.find((f) => typeof f.documents === 'string')
  // The budget's own size where it was measured, else the largest.
  const largest = generated.find((f) => f.documents === 10_000) ?? generated.at(-1)
  const budget =
    sample && largest
      ? `\nBuild of ${largest.documents} documents against the sample content's: ×${(largest.buildMs / sample.buildMs).toFixed(2)} (budget: 10,000 documents ≤ ×1.5).\n`
      : ''
  return `${header}\n${rule}\n${rows.join('\n')}\n${budget}`
}

/** The section, in Markdown (one table per measured checkout). */
export function scaleSection(report) {
  if (!report)
    return `${HEADING}\n\nnot measured (\`npm run bench:scale\` writes bench/scale.json)\n`
  const runs = report.runs.map((run) => `### ${run.label} (\`${run.root}\`)\n\n${table(run)}`)
  return `${HEADING}

Made by \`npm run bench:scale\` on ${report.startedAt} (Node ${report.node}, ${report.cpus} cores, 1-minute load average ${report.loadAverageAtStart?.[0]} at the start and ${report.loadAverageAtEnd?.[0]} at the end; each column's own load average is in the last row). Content folders generated from the models (tests/fixtures/scale-content.ts: both languages, every type; 75 % posts, 20 % projects, 5 % pages), plus the sample content. Latencies: autocannon, ${report.connections} connections, ${report.durationSeconds} s per page, p50 / p97.5 / p99 in ms (autocannon reports no p95; p97.5 bounds it). "Search" repeats one word, as a CDN or the serving layer's one-second keep sees a popular query; "a new query each request" asks for a word from the posts' titles and a number never asked before, so the full-text search runs and the page renders every time. "First visits": up to 20 older posts, one after another, none prerendered at the generated sizes (the sample content fits inside the bounded prerender, so its posts are). "First page after ready": the oldest post, which no bounded prerender covers, as the first request after \`/readyz\` answered 200. Growth: the largest generated folder's figure over the smallest's (for latencies, p99). Budgets (DESIGN.md): a build of 10,000 documents ≤ 1.5× the sample's; first on-demand page ≤ 300 ms; index and search p95 ≤ 50 ms at 50,000 documents, 10 connections; the content API loads 10,000 documents in ≤ 2 s.

${runs.join('\n')}`
}

/** Replaces the section in an existing report (or adds it at the end). */
export function writeScaleSection(reportFile, report) {
  writeSection(reportFile, HEADING, scaleSection(report))
}
