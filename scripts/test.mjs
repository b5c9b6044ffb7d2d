// `npm test`: every stage of tests/suites/index.mjs: format, lint, types, content check, units,
// build once, then the production build, the bundle budgets, end-to-end tests (Playwright, real
// Chromium), Firefox and WebKit, two nodes sharing one Redis, Varnish in front of the site, and
// the suites that build the site in folders of their own.
//
// The stages run one after another in the map's order, except:
// - a stage marked `beside` runs from the start, beside the others: it spends its time waiting
//   (a client's own pacing of its writes), not computing. Its output is kept and printed under
//   its name once it ends, after the stage then running has ended;
// - a stage's `prepare` command starts at the start too, and the stage waits for it before it
//   runs (the pushed repository's push, which waits 1.5 s between writes);
// - the stages of a `lane` run one after another from where the map lists the lane's first
//   stage, beside the stages after it; each is printed once it has ended.
// `--quick` (`npm run test:quick`) runs only the stages the map marks `quick`.
// Every stage runs even when an earlier one fails (those that need the production build skip
// when it failed). Each is printed under its name in the map with its wall time, the last line
// sums them all (`tests: N passed, N failed`), and `.data/test-results/timings.json` keeps each
// stage's time and the slowest test files and tests (scripts/lib/test-timings.mjs).
import { spawn } from 'node:child_process'
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { stages } from '../tests/suites/index.mjs'
import { clock, playwrightTests, timingsReport, vitestTests } from './lib/test-timings.mjs'

process.env.NEXT_TELEMETRY_DISABLED = '1'
// `npm run test:quick` (`--quick`): only the stages marked `quick`, with no browser.
const quick = process.argv.includes('--quick')
if (quick) process.env.FACET_TEST_QUICK = '1'
const plan = quick ? stages.filter((stage) => stage.quick) : stages
const results = path.join('.data', 'test-results')
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

const bin = (name) => (name === 'node' ? process.execPath : path.join('node_modules', '.bin', name))
const totals = { passed: 0, failed: 0 }
/** Each stage's summary line and timing, in the map's order once the run ends. */
const outcomes = new Map()
const timed = { files: [], tests: [] }
/** Each failed test, with its stage and the start of its message: listed again at the end. */
const failures = []
const startedAt = Date.now()

const heading = (stage) => `\n── ${stage.name}: ${stage.about} ──`

/**
 * Runs a command; its output goes to the terminal, or into `log` (a file) when one is given.
 * Resolves with whether it exited 0.
 */
function run(command, args, env = {}, log) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    })
    if (log) {
      const out = createWriteStream(log, { flags: 'a' })
      child.stdout.pipe(out, { end: false })
      child.stderr.pipe(out, { end: false })
      child.on('close', (code) => out.end(() => resolve(code === 0)))
    } else child.on('close', (code) => resolve(code === 0))
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`)
      resolve(false)
    })
  })
}

/** The stage's counts, from how it ended and its report; its files' and tests' times go to `timed`. */
function count(stage, ok) {
  if (stage.kind === 'check') return { passed: ok ? 1 : 0, failed: ok ? 0 : 1 }
  const json = path.join(results, `${stage.name}.json`)
  if (!existsSync(json)) return { passed: 0, failed: 1, note: 'no report' }
  const report = JSON.parse(readFileSync(json, 'utf8'))
  const found = (stage.kind === 'vitest' ? vitestTests : playwrightTests)(report)
  timed.files.push(...found.files.map((f) => ({ stage: stage.name, ...f })))
  timed.tests.push(...found.tests.map((t) => ({ stage: stage.name, ...t })))
  failures.push(...found.failures.map((f) => ({ stage: stage.name, ...f })))
  if (stage.kind === 'vitest') {
    // A file that fails to load has no failed test of its own: count it as one failure.
    const brokenFiles = (report.testResults ?? []).filter(
      (file) =>
        file.status === 'failed' && !file.assertionResults?.some((a) => a.status === 'failed'),
    ).length
    const failed = report.numFailedTests + brokenFiles
    return { passed: report.numPassedTests, failed: failed + (ok || failed > 0 ? 0 : 1) }
  }
  const { stats } = report
  return {
    passed: stats.expected,
    failed: stats.unexpected + stats.flaky + (ok || stats.unexpected ? 0 : 1),
    skipped: stats.skipped,
  }
}

/** The command a stage runs, and the environment it adds. */
function command(stage) {
  const json = path.join(results, `${stage.name}.json`)
  if (stage.kind === 'check') return [bin(stage.bin), stage.args, {}]
  if (stage.kind === 'vitest')
    return [bin('vitest'), ['run', '--config', stage.config], { VITEST_JSON: json }]
  if (stage.kind === 'playwright')
    return [bin('playwright'), ['test', '-c', stage.config], { PLAYWRIGHT_JSON: json }]
  // The production build the `afterBuild` stages run on.
  return [
    process.execPath,
    ['scripts/build-if-needed.mjs'],
    { SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT || 3217}` },
  ]
}

function record(stage, seconds, result) {
  totals.passed += result.passed
  totals.failed += result.failed
  const counts =
    stage.kind === 'build'
      ? result.failed
        ? 'FAILED (the stages after it that need it did not run)'
        : 'built'
      : stage.kind === 'check'
        ? result.failed
          ? 'FAILED'
          : 'passed'
        : `${result.passed} passed, ${result.failed} failed${result.skipped ? `, ${result.skipped} skipped` : ''}${result.note ? ` (${result.note})` : ''}`
  const where = stage.beside
    ? ' (beside the others)'
    : stage.lane
      ? ` (in the lane ${stage.lane})`
      : ''
  const line = `${stage.name}: ${counts} in ${clock(seconds)}${where}`
  outcomes.set(stage.name, { line, seconds, ...result })
}

/** A stage's `prepare` command, started at once; the stage awaits it (see the header). */
const prepared = new Map()
for (const stage of plan.filter((s) => s.prepare)) {
  const log = path.join(results, `${stage.name}.prepare.log`)
  const t0 = Date.now()
  prepared.set(stage.name, {
    log,
    done: run(bin(stage.prepare.bin), stage.prepare.args, {}, log).then((ok) => ({
      ok,
      seconds: (Date.now() - t0) / 1000,
    })),
  })
}

/**
 * The stages whose output goes to a log and is printed once they have ended: the `beside` stages
 * and those of a `lane`. Each entry: `{ stage, log, printed, ended, done }`.
 */
const logged = []

function printEnded() {
  for (const entry of logged.filter((e) => e.ended && !e.printed)) {
    entry.printed = true
    console.log(heading(entry.stage))
    process.stdout.write(readFileSync(entry.log, 'utf8'))
  }
}

/** The `beside` stages, started at once. */
for (const stage of plan.filter((s) => s.beside)) {
  const log = path.join(results, `${stage.name}.log`)
  const [cmd, args, env] = command(stage)
  const t0 = Date.now()
  const entry = { stage, log, printed: false, ended: false }
  entry.done = run(cmd, args, env, log).then((ok) => {
    entry.ended = true
    record(stage, (Date.now() - t0) / 1000, count(stage, ok))
  })
  logged.push(entry)
}

let buildOk = true

/**
 * Runs one stage (its preparation first) and records it. Its output goes to the terminal, under
 * its heading, or into `log` when one is given.
 */
async function runStage(stage, log) {
  if (!log) console.log(heading(stage))
  const t0 = Date.now()
  const say = (text) => (log ? appendFileSync(log, text) : process.stdout.write(text))
  const preparation = prepared.get(stage.name)
  if (preparation) {
    const { ok, seconds } = await preparation.done
    say(`(prepared beside the stages before it, in ${clock(seconds)}: ${stage.prepare.about})\n`)
    if (!ok) {
      say(readFileSync(preparation.log, 'utf8'))
      record(stage, (Date.now() - t0) / 1000, {
        passed: 0,
        failed: 1,
        note: `its preparation failed: ${preparation.log}`,
      })
      return
    }
  }
  const [cmd, args, env] = command(stage)
  const ok = await run(
    cmd,
    args,
    {
      ...env,
      ...stage.prepare?.env,
      // The types are checked once: by the types stage, and by the main build with its route
      // types. Every other build of the same source skips Next's own check (next.config.ts).
      ...(stage.kind === 'build' ? {} : { FACET_TYPES_CHECKED: '1' }),
      // In CI, on a fresh clone, no build finds a Turbopack cache to read, and each one's own is
      // thrown away with the clone: writing it (10–45 s of each build) is skipped (next.config.ts).
      ...(process.env.CI ? { FACET_BUILD_CACHE: '0' } : {}),
    },
    log,
  )
  if (stage.kind === 'build') {
    buildOk = ok
    record(stage, (Date.now() - t0) / 1000, { passed: 0, failed: ok ? 0 : 1 })
  } else record(stage, (Date.now() - t0) / 1000, count(stage, ok))
}

/**
 * A lane's stages, one after another, beside the stages of the map that follow its first one.
 * Each stage's output is printed once it has ended.
 */
async function runLane(stages) {
  for (const stage of stages) {
    if (stage.afterBuild && !buildOk) continue
    const entry = { stage, log: path.join(results, `${stage.name}.log`), printed: false }
    writeFileSync(entry.log, '')
    logged.push(entry)
    entry.done = runStage(stage, entry.log)
    await entry.done
    entry.ended = true
  }
}

const lanes = []
for (const stage of plan.filter((s) => !s.beside)) {
  printEnded()
  if (stage.lane) {
    // The lane starts where the map names its first stage; its other stages run in it.
    if (!lanes.some((lane) => lane.name === stage.lane)) {
      const stages = plan.filter((s) => s.lane === stage.lane)
      lanes.push({ name: stage.lane, done: runLane(stages) })
      console.log(
        `\n(started beside the stages after it, one after another: ${stages.map((s) => s.name).join(', ')}; each printed once it has ended)`,
      )
    }
    continue
  }
  if (stage.afterBuild && !buildOk) continue
  await runStage(stage)
}
if (lanes.length || logged.some((entry) => !entry.ended))
  console.log('\n(waiting for the stages run beside)')
await Promise.all(lanes.map((lane) => lane.done))
await Promise.all(logged.map((entry) => entry.done))
printEnded()
// Started but never awaited (its stage did not run): let it end before the summary.
await Promise.all([...prepared.values()].map((p) => p.done))

const seconds = (Date.now() - startedAt) / 1000
const ran = plan.filter((stage) => outcomes.has(stage.name))
writeFileSync(
  path.join(results, 'timings.json'),
  `${JSON.stringify(
    timingsReport({
      started: new Date(startedAt).toISOString(),
      seconds,
      stages: ran.map((stage) => {
        const { line: _line, ...outcome } = outcomes.get(stage.name)
        return {
          name: stage.name,
          ...(stage.beside ? { beside: true } : {}),
          ...(stage.lane ? { lane: stage.lane } : {}),
          ...outcome,
        }
      }),
      files: timed.files,
      tests: timed.tests,
      failures,
    }),
    null,
    2,
  )}\n`,
)
console.log(`\n── summary ──\n${ran.map((stage) => outcomes.get(stage.name).line).join('\n')}`)
console.log(
  `wall time ${clock(seconds)}; stage times and the slowest tests: ${results}/timings.json`,
)
// What failed, named again at the end: a long run's log is often read from its last lines only.
if (failures.length)
  console.log(
    `\n── failed ──\n${failures
      .map(
        (f) =>
          `${f.stage}${f.project ? ` [${f.project}]` : ''}: ${f.file} › ${f.test}\n${f.error.replace(/^/gm, '    ')}`,
      )
      .join('\n')}`,
  )
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`)
process.exit(totals.failed === 0 ? 0 : 1)
