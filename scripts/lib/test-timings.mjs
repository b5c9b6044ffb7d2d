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

/**
 * The first lines of a failure's message, without terminal colours: enough to name what failed
 * in the run's summary (the full message is in the stage's own output above it).
 */
export function firstLines(message, lines = 3) {
  return String(message ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(0, lines)
    .join('\n')
}

/**
 * Every test of a Vitest JSON report: its file, its full name and its duration in seconds; and
 * each failed test with the start of its message (a file that failed to load is one).
 */
export function vitestTests(report) {
  const files = []
  const tests = []
  const failures = []
  for (const file of report.testResults ?? []) {
    const name = relative(file.name)
    const seconds =
      typeof file.endTime === 'number' && typeof file.startTime === 'number'
        ? (file.endTime - file.startTime) / 1000
        : (file.assertionResults ?? []).reduce((sum, a) => sum + (a.duration ?? 0), 0) / 1000
    files.push({ file: name, seconds })
    const assertions = file.assertionResults ?? []
    for (const a of assertions) {
      tests.push({ file: name, test: a.fullName ?? a.title, seconds: (a.duration ?? 0) / 1000 })
      if (a.status === 'failed')
        failures.push({
          file: name,
          test: a.fullName ?? a.title,
          error: firstLines(a.failureMessages?.[0]),
        })
    }
    if (file.status === 'failed' && !assertions.some((a) => a.status === 'failed'))
      failures.push({ file: name, test: '(the file)', error: firstLines(file.message) })
  }
  return { files, tests, failures }
}

/**
 * Every test of a Playwright JSON report, each retry's time added, and its files' totals; and
 * each test that did not pass as expected (a flaky one too) with the start of its first error.
 */
export function playwrightTests(report) {
  const tests = []
  const failures = []
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const seconds = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0) / 1000
        const file = relative(
          spec.file ? path.resolve(report.config?.rootDir ?? '', spec.file) : '',
        )
        const title = [...titles, spec.title].filter(Boolean).join(' › ')
        tests.push({ file, test: title, seconds })
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = (test.results ?? []).find((r) => r.error || r.errors?.length)
          failures.push({
            file,
            test: title,
            ...(test.projectName ? { project: test.projectName } : {}),
            error: firstLines(error?.error?.message ?? error?.errors?.[0]?.message),
          })
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
  }
  // The top-level suites are the files; their titles are the files' names.
  for (const file of report.suites ?? []) walk(file, [])
  const byFile = new Map()
  for (const t of tests) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.seconds)
  return { files: [...byFile].map(([file, seconds]) => ({ file, seconds })), tests, failures }
}

/** The timings file: stages in the order they ran, then the slowest files and tests overall. */
export function timingsReport({
  started,
  seconds,
  stages,
  files,
  tests,
  failures = [],
  most = 20,
}) {
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
    failures,
  }
}
