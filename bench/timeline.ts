// `npm run bench:timeline -- [--origin URL] [--network slow4g|localhost] [--arrival early|quiet]
//   [--out FILE]`: one visit's request timeline on the showcase, as a phone meets it (bench/lib/
// viewer-live.ts: 4× CPU, the phone's viewport; slow 4G by default), with the visitor scrolling
// to the viewer 1.5 s after `load` (`early`, the default) or once the page is quiet. Every request
// of the page and of its workers, in the order asked: when it was asked and when it ended (ms
// from the navigation's start), its bytes over the wire, and which side of the scroll it came.
// With the page's `load`, the scroll and the viewer `live` on the same clock. Writes FILE
// (default bench/timeline-<network>-<arrival>.txt) and prints it.
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { chromium, type Request } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../playwright.config'
import { environment, PHONE, setNetwork, SLOW_4G, throttle } from './lib/viewer-live'

const { values } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://127.0.0.1:3000' },
    network: { type: 'string', default: 'slow4g' },
    arrival: { type: 'string', default: 'early' },
    out: { type: 'string' },
  },
})
if (values.network !== 'localhost' && values.network !== 'slow4g')
  throw new Error(`--network: "${values.network}" is neither localhost nor slow4g`)
if (values.arrival !== 'quiet' && values.arrival !== 'early')
  throw new Error(`--arrival: "${values.arrival}" is neither quiet nor early`)
setNetwork(values.network === 'slow4g' ? SLOW_4G : null)
const out = values.out ?? `bench/timeline-${values.network}-${values.arrival}.txt`

async function main() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const context = await browser.newContext({ ...PHONE, hasTouch: true })
  const page = await context.newPage()
  await throttle(await context.newCDPSession(page))
  await page.addInitScript('globalThis.__name = (fn) => fn')
  const finished: { request: Request; bytes: number; failed: boolean }[] = []
  const record = (failed: boolean) => async (request: Request) => {
    const bytes = await request.sizes().then(
      (sizes) => sizes.responseBodySize + sizes.responseHeadersSize,
      () => 0,
    )
    finished.push({ request, bytes, failed })
  }
  context.on('requestfinished', record(false))
  context.on('requestfailed', record(true))
  await page.goto(`${values.origin}/en-us/showcase?debug3d`, { waitUntil: 'load' })
  await page.waitForTimeout(1500)
  if (values.arrival === 'quiet') await page.waitForLoadState('networkidle').catch(() => {})
  const marks = await page.evaluate(
    () =>
      new Promise<{ origin: number; load: number; scroll: number; live: number; state: string }>(
        (resolve) => {
          const slot = document.querySelector('[data-3d-kind="viewer"]')!
          const [navigation] = performance.getEntriesByType(
            'navigation',
          ) as PerformanceNavigationTiming[]
          const scroll = performance.now()
          const done = (state: string) =>
            resolve({
              origin: performance.timeOrigin,
              load: navigation?.loadEventStart ?? NaN,
              scroll,
              live: performance.now(),
              state,
            })
          const check = () => {
            const state = slot.getAttribute('data-3d-state')
            if (state === 'live' || state === 'error' || state === 'unsupported') done(state)
          }
          new MutationObserver(check).observe(slot, { attributes: true })
          setTimeout(() => done('timeout'), 60_000)
          slot.scrollIntoView({ block: 'center' })
          check()
        },
      ),
  )
  // What is still in flight at live ends before the figures are read.
  await page.waitForTimeout(500)
  const rows = finished
    .map(({ request, bytes, failed }) => {
      const timing = request.timing()
      const start = timing.startTime - marks.origin
      const end = timing.responseEnd >= 0 ? start + timing.responseEnd : NaN
      const url = new URL(request.url())
      return { start, end, bytes, failed, what: `${url.pathname}${url.search}`.slice(0, 100) }
    })
    .sort((a, b) => a.start - b.start)
  const ms = (t: number) => (Number.isFinite(t) ? Math.round(t).toString() : '?').padStart(6)
  const lines = [
    `${environment()}; the scroll ${values.arrival === 'early' ? '1.5 s after load' : 'once the network is idle'}`,
    `load ${Math.round(marks.load)} ms · scroll ${Math.round(marks.scroll)} ms · ${marks.state} ${Math.round(marks.live)} ms (${Math.round(marks.live - marks.scroll)} ms after the scroll)`,
    `bytes before the scroll ${rows.filter((r) => r.start < marks.scroll).reduce((a, r) => a + r.bytes, 0)}, from the scroll to live ${rows.filter((r) => r.start >= marks.scroll && r.start <= marks.live).reduce((a, r) => a + r.bytes, 0)}`,
    '',
    ' asked  ended   bytes  request',
    ...rows.map(
      (r) =>
        `${ms(r.start)} ${ms(r.end)} ${String(r.bytes).padStart(7)}  ${r.start >= marks.scroll ? '↓ ' : '  '}${r.what}${r.failed ? ' (failed)' : ''}`,
    ),
  ]
  writeFileSync(out, lines.join('\n') + '\n')
  console.log(lines.join('\n'))
  await browser.close()
}
void main()
