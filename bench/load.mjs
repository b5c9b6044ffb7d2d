// `npm run bench:load`: 60 s of autocannon against the production server (`server/index.mjs`)
// with 100 connections spread across the site's pages. Reports requests, errors, non-2xx answers
// and the server's RSS before and after. `--rounds N` repeats the run against the same server and reports the RSS after each
// round, which tells growth that levels off from a leak. Writes bench/load.json. Loopback only,
// bounded in time, stops by itself.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startSite } from './lib/site-server.mjs'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
  },
})
const PORT = Number(process.env.BENCH_PORT || 3400)
const ORIGIN = `http://127.0.0.1:${PORT}`
// The server works under any host; SITE_URL (a build setting) may be set to reuse a build.
const server = await startSite({ port: PORT, siteUrl: process.env.SITE_URL })
const stop = server.stop

/** Resident memory of the server's whole process group, in MiB. */
function rssMiB() {
  const out = execFileSync('ps', ['-o', 'rss=', '-g', String(server.pid)], { encoding: 'utf8' })
  return Math.round(
    out
      .split('\n')
      .filter(Boolean)
      .reduce((sum, kb) => sum + Number(kb), 0) / 1024,
  )
}

// Every internal page linked from the two home pages and the indexes, found by crawling once.
const seen = new Set(['/en-us', '/fr-fr'])
const redirects = new Set()
const queue = [...seen]
while (queue.length > 0 && seen.size < 200) {
  const path = queue.shift()
  const response = await fetch(`${ORIGIN}${path}`, { redirect: 'manual' })
  // A redirect (`/` to a language, say) is meant; its target is crawled in its own right.
  if (response.status >= 300 && response.status < 400) {
    seen.delete(path)
    redirects.add(path)
    continue
  }
  const html = await response.text()
  for (const [, href] of html.matchAll(/href="(\/[^"#?]*)"/g)) {
    if (
      href.startsWith('/_next') ||
      href.startsWith('/local') ||
      href.startsWith('/api') ||
      seen.has(href) ||
      redirects.has(href)
    )
      continue
    if (/\.(xml|txt|svg|png|jpg|ico|webp)$/.test(href)) continue
    seen.add(href)
    queue.push(href)
  }
}
const paths = [...seen]
const before = rssMiB()
console.log(
  `load: ${paths.length} pages, ${args.connections} connections, ${args.seconds} s; RSS before ${before} MiB`,
)

const rounds = []
for (let round = 0; round < Number(args.rounds); round++) {
  const result = await autocannon({
    url: ORIGIN,
    connections: Number(args.connections),
    duration: Number(args.seconds),
    requests: paths.map((path) => ({ method: 'GET', path })),
  })
  rounds.push({
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    rssAfterMiB: rssMiB(),
  })
  console.log(`round ${round + 1}:`, rounds.at(-1))
}
stop()

const sum = (key) => rounds.reduce((total, round) => total + round[key], 0)
const report = {
  seconds: Number(args.seconds),
  connections: Number(args.connections),
  pages: paths.length,
  rounds: rounds.length,
  requests: sum('requests'),
  requestsPerSecond: Math.round(sum('requestsPerSecond') / rounds.length),
  p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
  errors: sum('errors'),
  timeouts: sum('timeouts'),
  non2xx: sum('non2xx'),
  rssBeforeMiB: before,
  rssAfterMiB: rounds.at(-1).rssAfterMiB,
  rssAfterEachRoundMiB: rounds.map((round) => round.rssAfterMiB),
}
writeFileSync('bench/load.json', JSON.stringify(report, null, 2) + '\n')
console.log(report)
process.exit(report.errors === 0 && report.non2xx === 0 ? 0 : 1)
