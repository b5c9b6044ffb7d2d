// `npm run bench:image-flood`: how long a project page's first visitor waits for its images, with
// the media cache empty, alone and while one client floods the image service with 20 unique
// oversized renders (8000 × 8000 AVIF at full quality). Each run starts the production server
// afresh on an empty media cache (`.data/media-cache` under the project), so every image of the
// page is a render, as for the first visitor after a publish. The images asked for are the ones a
// phone at 2× takes (the srcset candidate of at least 828 px), six at a time, as a browser does.
// DESIGN.md's budget (issue: bounded renders): all of them within 1 s under the flood.
//
//   node bench/image-flood.mjs [--runs 5] [--page /en-us/work/kiln-museum] [--port 3480]
//     [--compare /path/to/another/checkout]   (built; measured in the same run, turn about)
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { imagesOf } from './lib/page-images.mjs'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    page: { type: 'string', default: '/en-us/work/kiln-museum' },
    port: { type: 'string', default: '3480' },
    compare: { type: 'string' },
  },
})
const RUNS = Number(args.runs)
const PORT = Number(args.port)
const ORIGIN = `http://127.0.0.1:${PORT}`
const ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'
const FLOOD = 20
const PARALLEL = 6

/** Starts `dir`'s production server on an empty media cache; resolves once /readyz is 200. */
async function start(dir) {
  rmSync(path.join(dir, '.data', 'media-cache'), { recursive: true, force: true })
  const child = spawn(process.execPath, ['server/index.mjs'], {
    cwd: dir,
    env: { ...process.env, PORT: String(PORT), LISTEN_HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (let waited = 0; ; waited += 100) {
    const ready = await fetch(`${ORIGIN}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready) break
    if (child.exitCode !== null || waited > 60_000)
      throw new Error(`${dir}: the server did not become ready on ${ORIGIN}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return async () => {
    child.kill('SIGTERM')
    await exited
  }
}

/** One visit: the page, then its images; returns the images' time in ms and their statuses. */
async function visit(flood) {
  const oversized = flood
    ? Array.from({ length: FLOOD }, (_, i) =>
        fetch(
          `${ORIGIN}/local/prismic/media/photos/lumen-lamp.jpg?w=8000&h=8000&fit=fill&fm=avif&q=${81 + i}`,
        )
          .then((r) => r.arrayBuffer().then(() => r.status))
          .catch(() => 0),
      )
    : []
  const started = performance.now()
  const html = await (await fetch(`${ORIGIN}${args.page}`)).text()
  const queue = imagesOf(html)
  const count = queue.length
  const statuses = []
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let url = queue.shift(); url; url = queue.shift()) {
        const response = await fetch(new URL(url, ORIGIN), { headers: { accept: ACCEPT } })
        await response.arrayBuffer()
        statuses.push(response.status)
      }
    }),
  )
  const ms = Math.round(performance.now() - started)
  const flooded = await Promise.all(oversized)
  return { ms, count, statuses, refused: flooded.filter((s) => s === 503).length }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const sites = [{ label: 'this checkout', dir: process.cwd() }]
if (args.compare) sites.push({ label: 'compared', dir: path.resolve(args.compare) })
const results = new Map(sites.map((s) => [s.label, { quiet: [], flood: [] }]))
const loadStart = os.loadavg()[0]
for (let run = 0; run < RUNS; run++) {
  for (const site of sites) {
    for (const flood of [false, true]) {
      const stop = await start(site.dir)
      try {
        const result = await visit(flood)
        if (result.statuses.some((s) => s !== 200))
          throw new Error(`${site.label}: an image answered ${result.statuses.join(', ')}`)
        results.get(site.label)[flood ? 'flood' : 'quiet'].push(result.ms)
        console.log(
          `${site.label}, run ${run + 1}, ${flood ? `${FLOOD} oversized renders in flight (${result.refused} refused)` : 'alone'}: ${result.count} images in ${result.ms} ms`,
        )
      } finally {
        await stop()
      }
    }
  }
}
console.log(
  `\n${args.page}, first visit, images on an empty media cache; median of ${RUNS} (load average ${loadStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end)`,
)
console.log('| site | alone | 20 oversized renders in flight | runs (flood) |\n|---|---|---|---|')
for (const site of sites) {
  const { quiet, flood } = results.get(site.label)
  console.log(
    `| ${site.label} (${site.dir}) | ${median(quiet)} ms | ${median(flood)} ms | ${flood.join(', ')} |`,
  )
}
