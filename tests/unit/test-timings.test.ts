import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  clock,
  playwrightTests,
  timingsReport,
  vitestTests,
} from '../../scripts/lib/test-timings.mjs'

// What `npm test` reports of its own time (scripts/lib/test-timings.mjs): read from the JSON
// reports as Vitest and Playwright write them.

describe('the timings of npm test', () => {
  it('reads each Vitest file and test, by the file’s path from the root', () => {
    const report = {
      testResults: [
        {
          name: path.resolve('tests/unit/a.test.ts'),
          startTime: 1_000,
          endTime: 4_500,
          assertionResults: [
            { fullName: 'a one', duration: 1_200 },
            { fullName: 'a two', duration: 2_000 },
          ],
        },
        {
          name: path.resolve('tests/unit/b.test.ts'),
          assertionResults: [{ title: 'b', duration: 300 }],
        },
      ],
    }
    expect(vitestTests(report)).toEqual({
      files: [
        { file: 'tests/unit/a.test.ts', seconds: 3.5 },
        // No start and end: the sum of its tests.
        { file: 'tests/unit/b.test.ts', seconds: 0.3 },
      ],
      tests: [
        { file: 'tests/unit/a.test.ts', test: 'a one', seconds: 1.2 },
        { file: 'tests/unit/a.test.ts', test: 'a two', seconds: 2 },
        { file: 'tests/unit/b.test.ts', test: 'b', seconds: 0.3 },
      ],
      failures: [],
    })
  })

  it('reads each Playwright test with its describe titles and every retry’s time', () => {
    const rootDir = path.resolve('tests/e2e')
    const report = {
      config: { rootDir },
      suites: [
        {
          title: 'site.spec.ts',
          file: 'site.spec.ts',
          specs: [
            { title: 'top', file: 'site.spec.ts', tests: [{ results: [{ duration: 1_000 }] }] },
          ],
          suites: [
            {
              title: 'every route',
              file: 'site.spec.ts',
              specs: [
                {
                  title: '/en-us',
                  file: 'site.spec.ts',
                  tests: [{ results: [{ duration: 2_000 }, { duration: 500 }] }],
                },
              ],
            },
          ],
        },
      ],
    }
    expect(playwrightTests(report)).toEqual({
      files: [{ file: 'tests/e2e/site.spec.ts', seconds: 3.5 }],
      tests: [
        { file: 'tests/e2e/site.spec.ts', test: 'top', seconds: 1 },
        { file: 'tests/e2e/site.spec.ts', test: 'every route › /en-us', seconds: 2.5 },
      ],
      failures: [],
    })
  })

  it('names each failed Vitest test and file that did not load, with its message’s first lines', () => {
    const report = {
      testResults: [
        {
          name: path.resolve('tests/unit/a.test.ts'),
          status: 'failed',
          assertionResults: [
            { fullName: 'a passes', status: 'passed', duration: 10 },
            {
              fullName: 'a fails',
              status: 'failed',
              duration: 20,
              failureMessages: [
                '\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n\n- Expected\n+ Received\n    at a.test.ts:3',
              ],
            },
          ],
        },
        {
          name: path.resolve('tests/unit/b.test.ts'),
          status: 'failed',
          message: "Cannot find module './gone'",
          assertionResults: [],
        },
      ],
    }
    expect(vitestTests(report).failures).toEqual([
      {
        file: 'tests/unit/a.test.ts',
        test: 'a fails',
        error: 'AssertionError: expected 1 to be 2\n- Expected\n+ Received',
      },
      { file: 'tests/unit/b.test.ts', test: '(the file)', error: "Cannot find module './gone'" },
    ])
  })

  it('names each Playwright test that failed or passed only on a retry, with its project', () => {
    const report = {
      config: { rootDir: path.resolve('tests/e2e') },
      suites: [
        {
          title: 'three.spec.ts',
          specs: [
            {
              title: 'fails',
              file: 'three.spec.ts',
              tests: [
                {
                  projectName: 'chromium-3d',
                  status: 'unexpected',
                  results: [
                    { duration: 1, error: { message: 'Error: run 5: share\n\nExpected: > 0.03' } },
                  ],
                },
              ],
            },
            {
              title: 'flaky',
              file: 'three.spec.ts',
              tests: [
                {
                  status: 'flaky',
                  results: [
                    { duration: 1, errors: [{ message: 'Timeout 30000ms exceeded.' }] },
                    { duration: 1 },
                  ],
                },
              ],
            },
            {
              title: 'passes',
              file: 'three.spec.ts',
              tests: [{ status: 'expected', results: [{ duration: 1 }] }],
            },
          ],
        },
      ],
    }
    expect(playwrightTests(report).failures).toEqual([
      {
        file: 'tests/e2e/three.spec.ts',
        test: 'fails',
        project: 'chromium-3d',
        error: 'Error: run 5: share\nExpected: > 0.03',
      },
      { file: 'tests/e2e/three.spec.ts', test: 'flaky', error: 'Timeout 30000ms exceeded.' },
    ])
  })

  it('keeps the stages in the order they ran, and the slowest files and tests first', () => {
    const report = timingsReport({
      started: '2026-01-01T00:00:00.000Z',
      seconds: 100.04,
      stages: [
        { name: 'format', seconds: 10.01, passed: 1, failed: 0 },
        { name: 'units', seconds: 90.06, passed: 3, failed: 0 },
      ],
      files: [
        { stage: 'units', file: 'a', seconds: 1 },
        { stage: 'units', file: 'b', seconds: 5 },
        { stage: 'units', file: 'c', seconds: 3 },
      ],
      tests: [
        { stage: 'units', file: 'a', test: 'x', seconds: 0.5 },
        { stage: 'units', file: 'b', test: 'y', seconds: 4.94 },
      ],
      most: 2,
    })
    expect(report.seconds).toBe(100)
    expect(
      report.stages.map((s: { name: string; seconds: number }) => [s.name, s.seconds]),
    ).toEqual([
      ['format', 10],
      ['units', 90.1],
    ])
    expect(report.slowestFiles.map((f: { file: string }) => f.file)).toEqual(['b', 'c'])
    expect(report.slowestTests).toEqual([
      { stage: 'units', file: 'b', test: 'y', seconds: 4.9 },
      { stage: 'units', file: 'a', test: 'x', seconds: 0.5 },
    ])
    expect(report.cores).toBeGreaterThan(0)
    expect(report.loadAverageAtEnd).toHaveLength(3)
  })

  it('writes minutes and seconds', () => {
    expect(clock(0)).toBe('0:00')
    expect(clock(59.6)).toBe('1:00')
    expect(clock(1_524)).toBe('25:24')
  })
})
