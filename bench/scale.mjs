// `npm run bench:scale`: the site at 100, 1,000, 10,000 and 50,000 documents.
//
// For each size, a content folder generated from the models (tests/fixtures/scale-content.ts),
// then: the build (time, peak memory of every process in its group, the build folder's size),
// `server/index.mjs` started (time to `/readyz` 200), the first on-demand page after ready (the
// oldest post, which no bounded prerender covers), a deep journal page, p50/p97.5/p99 of an
// index page, a search, a post and a sitemap page (autocannon, 10 connections), and the content
// API alone over the same folder (load time, RSS, a filtered page's p95). Besides one URL under
// load (what a CDN or the serving layer's one-second keep sees), two figures of pages that no
// cache holds: first visits one after another to older posts, none prerendered (p95), and a
// search whose every request is a query never asked before (10 connections).
//
//   --sizes 100,1000       which sizes (default 100,1000,10000,50000)
//   --duration 5           seconds of autocannon per page
//   --before DIR           also measure another checkout (with node_modules) first, same run
//   --before-sizes 100     its sizes (default: --sizes)
//   --port 3460            where the servers listen
//   --out bench/scale.json
//   --no-report            leave bench/report.md as it is
//
// Run it under the machine's CPU lock; it writes bench/scale.json, which `npm run bench` puts in
// bench/report.md.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { writeScaleSection } from './lib/scale-report.mjs'

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split(/\s*--/)
    .filter(Boolean)
    .map((part) => {
      const [key, ...value] = part.split(/\s+|=/)
      return [key, value.join(' ') || 'true']
    }),
)
// `sample` is the project's own content/ folder: the build the budget compares with.
const sizeList = (list) => list.split(',').map((s) => (s === 'sample' ? s : Number(s)))
const SIZES = sizeList(args.sizes ?? 'sample,100,1000,10000,50000')
// The older checkout's build grows with the content: its largest sizes can take an hour.
const BEFORE_SIZES = args['before-sizes'] ? sizeList(args['before-sizes']) : SIZES
const DURATION = Number(args.duration ?? 5)
const PORT = Number(args.port ?? 3460)
const OUT = args.out ?? 'bench/scale.json'
const AFTER_ROOT = process.cwd()
const FOLDERS = path.join(os.tmpdir(), 'facet-scale')
const ORIGIN = `http://127.0.0.1:${PORT}`
const SEARCH_WORD = 'amber'
const PAGE_SIZE = 4096

for (const size of [...SIZES, ...BEFORE_SIZES])
  if (size !== 'sample' && (!Number.isInteger(size) || size < 10))
    throw new Error(`--sizes: ${size} is not a size ≥ 10`)

function contentFolder(size, root) {
  if (size === 'sample') return path.join(root, 'content')
  const dir = path.join(FOLDERS, String(size))
  const made = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'tests/fixtures/scale-content.ts',
      '--documents',
      String(size),
      '--out',
      dir,
    ],
    { cwd: AFTER_ROOT, stdio: 'inherit' },
  )
  if (made.status !== 0) throw new Error(`could not generate ${size} documents`)
  return dir
}

/** The RSS of every process in group `pgid`, in bytes (Linux /proc). */
function groupRss(pgid) {
  let total = 0
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) !== pgid) continue
      total += Number(readFileSync(`/proc/${name}/statm`, 'utf8').split(' ')[1]) * PAGE_SIZE
    } catch {
      // gone meanwhile
    }
  }
  return total
}

function countDocuments(content) {
  return readdirSync(path.join(content, 'documents'), { recursive: true }).filter((f) =>
    String(f).endsWith('.json'),
  ).length
}

function folderBytes(dir) {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) total += folderBytes(full)
    else if (entry.isFile()) total += statSync(full).size
  }
  return total
}

function env(root, content, distDir) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    CONTENT_DIR: content,
    NEXT_DIST_DIR: distDir,
    SITE_URL: ORIGIN,
    PORT: String(PORT),
    LISTEN_HOST: '127.0.0.1',
  }
}

/** Runs a command in its own process group, sampling the group's memory; resolves its figures. */
function measured(command, argv, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, argv, {
      ...options,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let peak = 0
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    const timer = setInterval(() => (peak = Math.max(peak, groupRss(child.pid))), 200)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearInterval(timer)
      if (code !== 0)
        return reject(new Error(`${command} ${argv.join(' ')} failed:\n${output.slice(-3000)}`))
      resolve({ ms: Math.round(performance.now() - started), peakBytes: peak, output })
    })
  })
}

async function timed(url) {
  const started = performance.now()
  const response = await fetch(url, { redirect: 'manual' })
  await response.arrayBuffer()
  return { status: response.status, ms: Math.round(performance.now() - started) }
}

/** An autocannon run at 10 connections for DURATION seconds; `options` add to its own. */
async function cannon(url, options = {}) {
  const result = await autocannon({ url, connections: 10, duration: DURATION, ...options })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p97_5Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

/** How many first visits, and how many words a search asks for in turn. */
const FIRST_VISITS = 20
const SEARCH_WORDS = 200

/**
 * The master language's post uids, oldest first, and words from their titles (for searches no
 * cache has seen), read from the folder itself.
 */
function posts(content) {
  const dir = path.join(content, 'documents', 'post')
  const words = new Set()
  const list = readdirSync(dir).flatMap((key) => {
    const file = path.join(dir, key, 'en-us.json')
    if (!existsSync(file)) return []
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    for (const word of JSON.stringify(doc.data?.title ?? '').match(/[a-z]{5,}/gi) ?? [])
      if (words.size < SEARCH_WORDS) words.add(word.toLowerCase())
    return [{ uid: doc.uid, date: doc.data?.date ?? '' }]
  })
  list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return {
    oldest: list[0].uid,
    newest: list.at(-1).uid,
    second: list[1]?.uid ?? list[0].uid,
    // Older posts after the two above: the bounded prerender keeps the newest.
    older: list.slice(2, 2 + FIRST_VISITS).map((p) => p.uid),
    count: list.length,
    words: [...words],
  }
}

/** The p95 of a list of figures (nearest rank). */
const p95 = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)]
}

/** First visits, one after another, to pages that were not prerendered. */
async function firstVisits(uids) {
  const times = []
  const statuses = new Set()
  for (const uid of uids) {
    const { status, ms } = await timed(`${ORIGIN}/en-us/journal/${uid}`)
    times.push(ms)
    statuses.add(status)
  }
  return {
    count: times.length,
    p95Ms: p95(times),
    maxMs: Math.max(...times),
    statuses: [...statuses],
  }
}

/** A search under load whose every request is new (no cache has the page). */
async function cannonNewSearches(words) {
  let next = 0
  const setupRequest = (request) => ({
    ...request,
    // A title word and a number never asked before: the full-text search runs, and the page
    // renders, for every request.
    path: `/en-us/journal?q=${encodeURIComponent(`${words[next % words.length]} ${next++}`)}`,
  })
  const figures = await cannon(ORIGIN, { requests: [{ setupRequest }] })
  return { ...figures, words: words.length }
}

async function serve(root, content, distDir) {
  const started = performance.now()
  const server = spawn(process.execPath, ['server/index.mjs'], {
    cwd: root,
    env: env(root, content, distDir),
    detached: true,
    stdio: 'ignore',
  })
  const stop = () =>
    new Promise((resolve) => {
      if (server.exitCode !== null) return resolve()
      server.once('exit', resolve)
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {
        resolve()
      }
    })
  process.once('exit', () => {
    try {
      process.kill(-server.pid, 'SIGKILL')
    } catch {
      /* stopped */
    }
  })
  const until = Date.now() + 180_000
  while (Date.now() < until) {
    const ready = await fetch(`${ORIGIN}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready) return { readyMs: Math.round(performance.now() - started), pid: server.pid, stop }
    await new Promise((r) => setTimeout(r, 25))
  }
  await stop()
  throw new Error(`${ORIGIN}/readyz did not answer 200 within 180 s`)
}

function contentApiFigures(root, content) {
  const run = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      path.join(AFTER_ROOT, 'bench/lib/content-api-figures.ts'),
      content,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 },
  )
  if (run.status !== 0) return { error: run.stderr.slice(-2000) }
  return JSON.parse(run.stdout.trim().split('\n').at(-1))
}

async function measureSize(root, size) {
  const content = contentFolder(size, root)
  const distDir = '.next-scale'
  rmSync(path.join(root, distDir), { recursive: true, force: true })
  console.log(`\n${root}: ${size} documents, building…`)
  const build = await measured(process.execPath, ['scripts/build.mjs'], {
    cwd: root,
    env: env(root, content, distDir),
  })
  const buildBytes = folderBytes(path.join(root, distDir))
  const uids = posts(content)
  const site = await serve(root, content, distDir)
  try {
    const firstOnDemand = await timed(`${ORIGIN}/en-us/journal/${uids.oldest}`)
    const secondOnDemand = await timed(`${ORIGIN}/en-us/journal/${uids.second}`)
    const firstVisitsFigures = await firstVisits(uids.older)
    const deepPage = Math.max(1, Math.min(50, Math.floor(uids.count / 6)))
    const deepJournal = await timed(`${ORIGIN}/en-us/journal?page=${deepPage}`)
    const rssAfterReady = groupRss(site.pid)
    const load = {
      index: await cannon(`${ORIGIN}/en-us/journal`),
      search: await cannon(`${ORIGIN}/en-us/journal?q=${SEARCH_WORD}`),
      newSearches: uids.words.length ? await cannonNewSearches(uids.words) : undefined,
      post: await cannon(`${ORIGIN}/en-us/journal/${uids.oldest}`),
      sitemap: await cannon(`${ORIGIN}/sitemaps/sitemap/0.xml`),
    }
    const figures = {
      documents: size === 'sample' ? `sample (${countDocuments(content)})` : size,
      buildMs: build.ms,
      buildPeakMB: Math.round(build.peakBytes / 2 ** 20),
      buildFolderMB: Math.round((buildBytes / 2 ** 20) * 10) / 10,
      readyMs: site.readyMs,
      serverRssMB: Math.round(rssAfterReady / 2 ** 20),
      firstOnDemand,
      secondOnDemand,
      firstVisits: firstVisitsFigures,
      deepJournal: { page: deepPage, ...deepJournal },
      load,
      contentApi: contentApiFigures(root, content),
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    }
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    await site.stop()
    rmSync(path.join(root, distDir), { recursive: true, force: true })
  }
}

const report = {
  startedAt: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
  durationSeconds: DURATION,
  connections: 10,
  runs: [],
}
// The checkout under test first: its figures are written after each size, so a run stopped
// early (an older checkout's large builds take long) keeps what it measured.
const roots = [
  { label: 'after', root: AFTER_ROOT, sizes: SIZES },
  ...(args.before
    ? [{ label: 'before', root: path.resolve(args.before), sizes: BEFORE_SIZES }]
    : []),
]
function save() {
  report.loadAverageAtEnd = os.loadavg().map((l) => Math.round(l * 100) / 100)
  // Before first in the report, as one reads a change.
  const runs = report.runs
  const ordered = {
    ...report,
    runs: [
      ...runs.filter((r) => r.label === 'before'),
      ...runs.filter((r) => r.label !== 'before'),
    ],
  }
  writeFileSync(OUT, JSON.stringify(ordered, null, 2) + '\n')
  if (!args['no-report']) writeScaleSection('bench/report.md', ordered)
}
for (const { label, root, sizes: wanted } of roots) {
  const run = { label, root, sizes: [] }
  report.runs.push(run)
  for (const size of wanted) {
    run.sizes.push(await measureSize(root, size))
    save()
  }
}
console.log(`\nwrote ${OUT}${args['no-report'] ? '' : ' and its section of bench/report.md'}`)
process.exit(0)
