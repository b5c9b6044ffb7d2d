// `npm test`: format, lint, types, content check, units and conformance (Vitest), then the
// production build, the bundle budgets (scripts/check-bundles.mjs), end-to-end tests
// (Playwright, real Chromium), two nodes sharing one Redis (Vitest, tests/nodes/) and Varnish in
// front of the site (Vitest, tests/cdn/). Every stage runs even when an earlier one fails, and
// the last line sums them all: `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'

process.env.NEXT_TELEMETRY_DISABLED = '1'
const results = path.join('.data', 'test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const bin = (name) => path.join('node_modules', '.bin', name)
const totals = { passed: 0, failed: 0 }
const lines = []

function run(label, command, args, env = {}) {
  console.log(`\n── ${label} ──`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status === 0
}

/** A stage that is one check: it passes or fails as a whole. */
function check(label, command, args) {
  const ok = run(label, command, args)
  totals[ok ? 'passed' : 'failed'] += 1
  lines.push(`${label}: ${ok ? 'passed' : 'FAILED'}`)
}

check('format', bin('prettier'), ['--check', '.'])
check('lint', bin('eslint'), ['.', '--max-warnings=0'])
check('types', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'])
check('content', bin('tsx'), ['services/content-api/check-cli.ts'])

/** A Vitest run whose tests are counted one by one, from its JSON report. */
function vitest(label, name, args) {
  const json = path.join(results, `${name}.json`)
  const ok = run(label, bin('vitest'), ['run', ...args], { VITEST_JSON: json })
  if (!existsSync(json)) {
    totals.failed += 1
    lines.push(`${name}: FAILED (no report)`)
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
  lines.push(`${name}: ${report.numPassedTests} passed, ${failed} failed`)
}

// Units and conformance.
vitest('units and conformance (vitest)', 'vitest', [])

// `npm run build` then `npm start` into NEXT_DIST_DIR=.next-other on a copy of the repository:
// one build, no second one, no tracked file changed (tests/build-once/).
vitest('build once (vitest)', 'build-once', ['--config', 'vitest.build-once.config.ts'])

// End to end, against the production build.
const buildOk = run('build', process.execPath, ['scripts/build-if-needed.mjs'], {
  SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT || 3217}`,
})
if (!buildOk) {
  totals.failed += 1
  lines.push('build: FAILED (end-to-end tests not run)')
} else {
  // Byte sizes are stable, so the bundle budgets are a test (times are only benchmarked).
  check('bundles', process.execPath, ['scripts/check-bundles.mjs'])
  const playwrightJson = path.join(results, 'playwright.json')
  const e2eOk = run('end to end (playwright)', bin('playwright'), ['test'], {
    PLAYWRIGHT_JSON: playwrightJson,
  })
  if (existsSync(playwrightJson)) {
    const { stats } = JSON.parse(readFileSync(playwrightJson, 'utf8'))
    const failed = stats.unexpected + stats.flaky + (e2eOk || stats.unexpected ? 0 : 1)
    totals.passed += stats.expected
    totals.failed += failed
    lines.push(
      `playwright: ${stats.expected} passed, ${failed} failed${stats.skipped ? `, ${stats.skipped} skipped` : ''}`,
    )
  } else {
    totals.failed += 1
    lines.push('playwright: FAILED (no report)')
  }
}

// Firefox and WebKit on that build (tests/engines/): Debian's firefox-esr and WebKitGTK.
if (buildOk)
  vitest('Firefox and WebKit (vitest)', 'engines', ['--config', 'vitest.engines.config.ts'])

// Several nodes on that build sharing one Redis (tests/nodes/): the webhook on one purges all.
if (buildOk)
  vitest('several nodes (vitest)', 'several-nodes', ['--config', 'vitest.nodes.config.ts'])

// Varnish in front of the production server on that build (tests/cdn/): publishes, replaced
// images and bounded image renders through a CDN.
if (buildOk) vitest('CDN (vitest, varnish)', 'cdn', ['--config', 'vitest.cdn.config.ts'])

/** A Playwright suite with its own config, counted from its JSON report under `name`. */
function playwrightSuite(label, name, config) {
  const json = path.join(results, `playwright-${config}.json`)
  const ok = run(label, bin('playwright'), ['test', '-c', `playwright.${config}.config.ts`], {
    PLAYWRIGHT_JSON: json,
  })
  if (existsSync(json)) {
    const { stats } = JSON.parse(readFileSync(json, 'utf8'))
    const failed = stats.unexpected + stats.flaky + (ok || stats.unexpected ? 0 : 1)
    totals.passed += stats.expected
    totals.failed += failed
    lines.push(`${name}: ${stats.expected} passed, ${failed} failed`)
  } else {
    totals.failed += 1
    lines.push(`${name}: FAILED (no report)`)
  }
}

// The site built against a content folder no test has seen, served by the standalone content API.
playwrightSuite('foreign content (playwright)', 'foreign content', 'foreign')
// The sample content with a right-to-left language added as an editor would (ar-ae, by
// tests/fixtures/rtl-content.ts), built in its own dist dir by the same server script.
playwrightSuite('right-to-left language (playwright)', 'right-to-left language', 'rtl')
// The site built against a repository prismic:push filled from content/, compared page by page
// with the main build.
if (buildOk) playwrightSuite('pushed repository (playwright)', 'pushed repository', 'pushed')
// Slice Machine (port 9999) on a copy of the models, framing the development server's simulator.
playwrightSuite('slice machine (playwright)', 'slice machine', 'slicemachine')

console.log(`\n── summary ──\n${lines.join('\n')}`)
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
