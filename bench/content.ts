import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { createContentApi } from '../services/content-api/app'
import { buildFixture } from '../tests/fixtures/content-builder'

/**
 * `npm run bench:content`: 10,000 generated documents in a temp folder; load time, memory, and
 * p50/p95 of typical queries through the in-process handler (what the site's build does).
 * Budget (DESIGN.md): load ≤ 2 s; a filtered, ordered page of 20 at p95 ≤ 10 ms.
 * Writes bench/content.json (run from the project root).
 */

const COUNT = Number(process.env.BENCH_DOCUMENTS ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 200)

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-bench-'))
  // 10,000 documents in all: articles (a third with a French alternate), authors and settings.
  const fixture = buildFixture(dir, { count: Math.round((COUNT - 12) * 0.75), seed: 42 })
  const documents = fixture.documents.length
  const uids = fixture.documents
    .filter((d) => d.type === 'article' && d.lang === 'en-us')
    .map((d) => d.uid!)
  fixture.documents.length = 0 // measure the store's memory, not the generator's

  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
  global.gc?.()
  const memBefore = process.memoryUsage()
  const started = performance.now()
  const api = createContentApi({ contentDir: dir, modelsDir: dir })
  const loadMs = performance.now() - started
  global.gc?.()
  const memAfter = process.memoryUsage()
  const ref = api.store().ref

  const base = 'http://bench.local/api/v2/documents/search'
  const url = (params: Record<string, string | string[]>) => {
    const search = new URLSearchParams({ ref })
    for (const [k, v] of Object.entries(params))
      for (const value of Array.isArray(v) ? v : [v]) search.append(k, value)
    return `${base}?${search}`
  }

  const queries: Record<string, (i: number) => string> = {
    'by UID': (i) =>
      url({
        q: [
          `[${prismic.filter.at('document.type', 'article')}]`,
          `[${prismic.filter.at('my.article.uid', uids[(i * 7919) % uids.length]!)}]`,
        ],
      }),
    'type, ordered by date desc, page of 20': (i) =>
      url({
        q: `[${prismic.filter.at('document.type', 'article')}]`,
        orderings: '[my.article.published desc]',
        pageSize: '20',
        page: String(1 + (i % 5)),
      }),
    'tag + type, ordered, page of 20': (i) =>
      url({
        q: [
          `[${prismic.filter.at('document.type', 'article')}]`,
          `[${prismic.filter.any('document.tags', [['alpha', 'beta', 'gamma'][i % 3]!])}]`,
        ],
        orderings: '[my.article.published desc,document.first_publication_date]',
        pageSize: '20',
      }),
    'fulltext, page of 20': (i) =>
      url({
        q: `[${prismic.filter.fulltext('document', ['walnut', 'copper', 'indigo'][i % 3]!)}]`,
        pageSize: '20',
      }),
  }

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
  const round = (ms: number) => Math.round(ms * 100) / 100
  const results: Record<string, { p50: number; p95: number; total: number }> = {}
  for (const [name, make] of Object.entries(queries)) {
    let total = 0
    for (let i = 0; i < 20; i++) await (await api.fetch(new Request(make(i)))).text() // warm-up
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now()
      const response = await api.fetch(new Request(make(i)))
      const body = (await response.json()) as { total_results_size: number }
      times.push(performance.now() - t)
      if (response.status !== 200) throw new Error(`${name}: status ${response.status}`)
      total = body.total_results_size
    }
    times.sort((a, b) => a - b)
    results[name] = { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), total }
  }
  api.close()
  rmSync(dir, { recursive: true, force: true })

  const report = {
    documents,
    node: process.version,
    // Other processes share the CPUs: the load average says how far to trust the figures.
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    cpus: cpus().length,
    loadMs: Math.round(loadMs),
    memory: {
      rssMB: mb(memAfter.rss),
      heapUsedMB: mb(memAfter.heapUsed),
      heapGrowthMB: mb(memAfter.heapUsed - memBefore.heapUsed),
    },
    queries: results,
    budget: {
      loadMs: 2000,
      filteredOrderedPageP95Ms: 10,
      loadOk: loadMs <= 2000,
      filteredOrderedPageOk: results['tag + type, ordered, page of 20']!.p95 <= 10,
    },
  }
  writeFileSync(
    path.join(import.meta.dirname, 'content.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  )

  console.log(
    `Content API benchmark: ${documents} documents, Node ${process.version}, load average ${report.loadAverage.join(' ')} on ${report.cpus} CPUs`,
  )
  console.log(`  load: ${report.loadMs} ms (budget 2000 ms)`)
  console.log(
    `  memory: RSS ${report.memory.rssMB} MB, heap used ${report.memory.heapUsedMB} MB (+${report.memory.heapGrowthMB} MB for the store)`,
  )
  console.table(
    Object.fromEntries(
      Object.entries(results).map(([k, v]) => [
        k,
        { 'p50 ms': v.p50, 'p95 ms': v.p95, results: v.total },
      ]),
    ),
  )
  if (!report.budget.loadOk || !report.budget.filteredOrderedPageOk) {
    console.error('Over budget.')
    process.exitCode = 1
  }
}

void main()
