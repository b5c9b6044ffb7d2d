// What `npm test` took: each stage's wall time, and the slowest test files and tests, read from
// the JSON reports Vitest and Playwright write. scripts/test.mjs prints the stages' times beside
// their counts and writes all of it to `.data/test-results/timings.json`, so that a change that
// slows the suite shows in its own run.
import { loadavg, availableParallelism } from 'node:os'
import path from 'node:path'

/** `m:ss` for a number of seconds. */
export function clock(seconds) {
  const s = Math.round(seconds)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

const relative = (file) => (file ? path.relative(process.cwd(), file) || file : '')

/** Every test of a Vitest JSON report: its file, its full name and its duration in seconds. */
export function vitestTests(report) {
  const files = []
  const tests = []
  for (const file of report.testResults ?? []) {
    const name = relative(file.name)
    const seconds =
      typeof file.endTime === 'number' && typeof file.startTime === 'number'
        ? (file.endTime - file.startTime) / 1000
        : (file.assertionResults ?? []).reduce((sum, a) => sum + (a.duration ?? 0), 0) / 1000
    files.push({ file: name, seconds })
    for (const a of file.assertionResults ?? [])
      tests.push({ file: name, test: a.fullName ?? a.title, seconds: (a.duration ?? 0) / 1000 })
  }
  return { files, tests }
}

/** Every test of a Playwright JSON report, each retry's time added, and its files' totals. */
export function playwrightTests(report) {
  const tests = []
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const seconds = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0) / 1000
        tests.push({
          file: relative(spec.file ? path.resolve(report.config?.rootDir ?? '', spec.file) : ''),
          test: [...titles, spec.title].filter(Boolean).join(' › '),
          seconds,
        })
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
  }
  // The top-level suites are the files; their titles are the files' names.
  for (const file of report.suites ?? []) walk(file, [])
  const byFile = new Map()
  for (const t of tests) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.seconds)
  return { files: [...byFile].map(([file, seconds]) => ({ file, seconds })), tests }
}

/** The timings file: stages in the order they ran, then the slowest files and tests overall. */
export function timingsReport({ started, seconds, stages, files, tests, most = 20 }) {
  const round = (n) => Math.round(n * 10) / 10
  const slowest = (list) =>
    [...list]
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, most)
      .map((entry) => ({ ...entry, seconds: round(entry.seconds) }))
  return {
    started,
    seconds: round(seconds),
    cores: availableParallelism(),
    loadAverageAtEnd: loadavg().map(round),
    stages: stages.map((stage) => ({ ...stage, seconds: round(stage.seconds) })),
    slowestFiles: slowest(files),
    slowestTests: slowest(tests),
  }
}
