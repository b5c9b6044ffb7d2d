// `npm run bench:slicemachine`: the time from `npm run slicemachine` to a usable Slice Machine,
// as a developer meets it: the command started in the project, then Slice Machine's slice list
// opened in Chromium until every slice's card is on screen; then the same page loaded again.
// Offline and logged out, as on this machine. Median of --runs (3), with the load average.
//
//   node bench/slicemachine-start.mjs [--runs 3]
import { spawn } from 'node:child_process'
import { readdirSync, existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { CHROME_PATH } from './lib/chromium.mjs'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } })
const RUNS = Number(args.runs)
const URL_ = 'http://localhost:9999/slices'
const SLICES = path.join(process.cwd(), 'src', 'slices')
const names = readdirSync(SLICES)
  .filter((name) => existsSync(path.join(SLICES, name, 'model.json')))
  .map((name) => JSON.parse(readFileSync(path.join(SLICES, name, 'model.json'), 'utf8')).name)

/** Waits until the slice list shows a card for every slice; returns the ms since `since`. */
async function usable(page, since) {
  for (;;) {
    try {
      await page.goto(URL_, { timeout: 5_000 })
      for (const name of names)
        await page
          .getByRole('link', { name: new RegExp(`^${name}\\b`) })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 })
      return Math.round(performance.now() - since)
    } catch (error) {
      if (performance.now() - since > 120_000) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox'] })
const firsts = []
const reloads = []
const loadStart = os.loadavg()[0]
try {
  for (let run = 0; run < RUNS; run++) {
    const since = performance.now()
    const child = spawn('npm', ['run', 'slicemachine'], { stdio: 'ignore', detached: true })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      const page = await browser.newPage()
      firsts.push(await usable(page, since))
      const again = performance.now()
      reloads.push(await usable(page, again))
      await page.close()
      console.log(
        `run ${run + 1}: usable ${firsts.at(-1)} ms after the command; reload ${reloads.at(-1)} ms`,
      )
    } finally {
      process.kill(-child.pid, 'SIGTERM')
      await exited
    }
  }
} finally {
  await browser.close()
}
console.log(
  `npm run slicemachine → slice list with all ${names.length} slices: median ${median(firsts)} ms (${firsts.join(', ')}); a reload: ${median(reloads)} ms (${reloads.join(', ')}); load average ${loadStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`,
)
