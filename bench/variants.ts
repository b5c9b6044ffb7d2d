// `npm run bench:variants -- --origin URL`: the time from a press on one of the showcase lamp's
// finishes (material variants, #40) to its materials on screen, as a phone has it: Lighthouse's
// mobile screen, CPU 4× slower, headless Chromium, on the worker path and on the main thread.
// "On screen" is the slot's live region's words: the page writes them when the renderer says a frame
// with the new materials has been presented (`variant`, protocol.ts). Each visit: the page loaded
// and the viewer live, then the finishes pressed in turn, one at a time.
//   --runs 3      visits per path
//   --presses 6   presses per visit
//   --out bench/variants.json
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { documentFile, urlOf } from '../tests/e2e/support/content'
import { CPU_SLOWDOWN, MOBILE, runBenchmark } from './lib/chromium.mjs'
import { median } from '../src/three/render/resolution'

const { values: args } = parseArgs({
  options: {
    origin: { type: 'string' },
    runs: { type: 'string', default: '3' },
    presses: { type: 'string', default: '6' },
    out: { type: 'string', default: 'bench/variants.json' },
  },
})
if (!args.origin)
  throw new Error('bench:variants: name the running site, e.g. --origin http://127.0.0.1:3217')
const ORIGIN = args.origin
const VIEWER = '.slice-model-viewer [data-3d-state]'

async function main() {
  const showcase = urlOf(documentFile('page', 'showcase', 'en-us'))!
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const results: Record<string, { times: number[]; median: number; max: number }> = {}
  try {
    for (const path of ['worker', 'main'] as const) {
      const times: number[] = []
      for (let run = 0; run < Number(args.runs); run++) {
        const context = await browser.newContext(MOBILE)
        const page = await context.newPage()
        await page.goto(`${ORIGIN}${showcase}${path === 'main' ? '?debug3d=main' : ''}`)
        await page.locator(`${VIEWER} [data-3d-stage]`).scrollIntoViewIfNeeded()
        await page.waitForSelector(`${VIEWER}[data-3d-state="live"] [data-3d-variants] button`, {
          timeout: 60_000,
        })
        const cdp = await context.newCDPSession(page)
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
        const names = await page
          .locator(`${VIEWER} [data-3d-variants] button`)
          .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-variant')!))
        for (let i = 0; i < Number(args.presses); i++) {
          // Each press a finish other than the one shown: the next in the row.
          const name = names[(i + 1) % names.length]!
          const ms = await page.evaluate(
            ({ selector, name }) =>
              new Promise<number>((resolve, reject) => {
                const row = document.querySelector(`${selector} [data-3d-variants]`)!
                // The slot's live region, which says the finish once it is on screen.
                const status = document.querySelector(`${selector} [data-3d-status]`)!
                const button = row.querySelector<HTMLElement>(`[data-variant="${name}"]`)!
                const before = status.textContent
                const observer = new MutationObserver(() => {
                  if (status.textContent === before) return
                  observer.disconnect()
                  resolve(performance.now() - start)
                })
                observer.observe(status, { childList: true, characterData: true, subtree: true })
                setTimeout(() => reject(new Error(`no status for ${name} in 10 s`)), 10_000)
                const start = performance.now()
                button.click()
              }),
            { selector: VIEWER, name },
          )
          times.push(Math.round(ms))
          await page.waitForTimeout(300)
        }
        await context.close()
      }
      results[path] = { times, median: median(times), max: Math.max(...times) }
      console.log(path, JSON.stringify(results[path]))
    }
  } finally {
    await browser.close()
  }
  const report = {
    when: new Date().toISOString(),
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
    protocol:
      "showcase lamp's finishes, 412 × 823 at 1.75, CPU 4× slower, headless Chromium: from the press to the status line, written once the renderer's frame with the new materials is presented",
    paths: results,
  }
  writeFileSync(args.out, JSON.stringify(report, null, 2) + '\n')
  console.log(`\n| path | presses | median | max |\n|---|---|---|---|`)
  for (const [path, r] of Object.entries(results))
    console.log(`| ${path} | ${r.times.length} | ${r.median} ms | ${r.max} ms |`)
  console.log(`load average: ${report.load.join(' ')}`)
}

runBenchmark(main)
