/** One test file, or one test, and how long it took. */
export type Timed = { stage?: string; file: string; test?: string; seconds: number }
/** A test that failed (or passed only on a retry), with the first lines of its message. */
export type Failure = {
  stage?: string
  file: string
  test: string
  project?: string
  error: string
}

/** `m:ss` for a number of seconds. */
export function clock(seconds: number): string
/** The first lines of a failure's message, without terminal colours. */
export function firstLines(message: unknown, lines?: number): string
/** Every file and test of a Vitest JSON report, with their durations in seconds; its failures. */
export function vitestTests(report: unknown): {
  files: Timed[]
  tests: Timed[]
  failures: Failure[]
}
/** Every test of a Playwright JSON report, each retry's time added, its files' totals; its failures. */
export function playwrightTests(report: unknown): {
  files: Timed[]
  tests: Timed[]
  failures: Failure[]
}
/** The timings file of `npm test` (`.data/test-results/timings.json`). */
export function timingsReport(options: {
  started: string
  seconds: number
  stages: ({ name: string; seconds: number } & Record<string, unknown>)[]
  files: Timed[]
  tests: Timed[]
  failures?: Failure[]
  most?: number
}): {
  started: string
  seconds: number
  cores: number
  loadAverageAtEnd: number[]
  stages: ({ name: string; seconds: number } & Record<string, unknown>)[]
  slowestFiles: Timed[]
  slowestTests: Timed[]
  failures: Failure[]
}
