// `npm test`: every stage of tests/suites/index.mjs, in its order: format, lint, types, content
// check, units and conformance, build once, then the production build, the bundle budgets,
// end-to-end tests (Playwright, real Chromium), Firefox and WebKit, two nodes sharing one Redis,
// Varnish in front of the site, and the suites that build the site in folders of their own.
// Every stage runs even when an earlier one fails (those that need the production build skip
// when it failed), each is printed under its name in the map, and the last line sums them all:
// `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { stages } from '../tests/suites/index.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const results = path.join('.data', 'test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const bin = (name) => (name === 'node' ? process.execPath : path.join('node_modules', '.bin', name))
const totals = { passed: 0, failed: 0 }
const lines = []

function run(stage, command, args, env = {}) {
  console.log(`\n── ${stage.name}: ${stage.about} ──`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status === 0
}

/** A stage that is one check: it passes or fails as a whole. */
function check(stage) {
  const ok = run(stage, bin(stage.bin), stage.args)
  totals[ok ? 'passed' : 'failed'] += 1
  lines.push(`${stage.name}: ${ok ? 'passed' : 'FAILED'}`)
}

/** A Vitest suite whose tests are counted one by one, from its JSON report. */
function vitest(stage) {
  const json = path.join(results, `${stage.name}.json`)
  const ok = run(stage, bin('vitest'), ['run', '--config', stage.config], { VITEST_JSON: json })
  if (!existsSync(json)) {
    totals.failed += 1
    lines.push(`${stage.name}: FAILED (no report)`)
    return
  }
  const report = JSON.parse(readFileSync(json, 'utf8'))
  // A file that fails to load has no failed test of its own: count it as one failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !file.assertionResults?.some((a) => a.status === 'failed'),
  ).length
  const failed =
    report.numFailedTests + brokenFiles + (ok || report.numFailedTests + brokenFiles > 0 ? 0 : 1)
  totals.passed += report.numPassedTests
  totals.failed += failed
  lines.push(`${stage.name}: ${report.numPassedTests} passed, ${failed} failed`)
}

/** A Playwright suite, counted from its JSON report. */
function playwright(stage) {
  const json = path.join(results, `${stage.name}.json`)
  const ok = run(stage, bin('playwright'), ['test', '-c', stage.config], {
    PLAYWRIGHT_JSON: json,
  })
  if (!existsSync(json)) {
    totals.failed += 1
    lines.push(`${stage.name}: FAILED (no report)`)
    return
  }
  const { stats } = JSON.parse(readFileSync(json, 'utf8'))
  const failed = stats.unexpected + stats.flaky + (ok || stats.unexpected ? 0 : 1)
  totals.passed += stats.expected
  totals.failed += failed
  lines.push(
    `${stage.name}: ${stats.expected} passed, ${failed} failed${stats.skipped ? `, ${stats.skipped} skipped` : ''}`,
  )
}

/** The production build the `afterBuild` stages run on; false when it failed. */
function build(stage) {
  const ok = run(stage, process.execPath, ['scripts/build-if-needed.mjs'], {
    SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT || 3217}`,
  })
  if (!ok) {
    totals.failed += 1
    lines.push(`${stage.name}: FAILED (the stages after it that need it did not run)`)
  }
  return ok
}

let buildOk = true
for (const stage of stages) {
  if (stage.afterBuild && !buildOk) continue
  if (stage.kind === 'build') buildOk = build(stage)
  else if (stage.kind === 'check') check(stage)
  else if (stage.kind === 'vitest') vitest(stage)
  else if (stage.kind === 'playwright') playwright(stage)
  else {
    totals.failed += 1
    lines.push(`${stage.name}: FAILED (unknown kind in tests/suites/index.mjs)`)
  }
}

console.log(`\n── summary ──\n${lines.join('\n')}`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
