/** One test file, or one test, and how long it took. */
export type Timed = { stage?: string; file: string; test?: string; seconds: number }

/** `m:ss` for a number of seconds. */
export function clock(seconds: number): string
/** Every file and test of a Vitest JSON report, with their durations in seconds. */
export function vitestTests(report: unknown): { files: Timed[]; tests: Timed[] }
/** Every test of a Playwright JSON report, each retry's time added, and its files' totals. */
export function playwrightTests(report: unknown): { files: Timed[]; tests: Timed[] }
/** The timings file of `npm test` (`.data/test-results/timings.json`). */
export function timingsReport(options: {
  started: string
  seconds: number
  stages: ({ name: string; seconds: number } & Record<string, unknown>)[]
  files: Timed[]
  tests: Timed[]
  most?: number
}): {
  started: string
  seconds: number
  cores: number
  loadAverageAtEnd: number[]
  stages: ({ name: string; seconds: number } & Record<string, unknown>)[]
  slowestFiles: Timed[]
  slowestTests: Timed[]
}
