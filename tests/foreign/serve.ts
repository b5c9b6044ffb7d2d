// Serves the site built against a content folder of its own, beside the main build, as a
// developer pointing a fork at their own content would, and as a publisher builds it: `npm run
// build` then `npm start`, on a fresh copy of the repository (tests/support/repository-copy.ts).
// Two folders, by FOREIGN_CONTENT:
// - `random` (default): generated from the project's models with a fresh seed, a folder no test
//   has seen (tests/suites/foreign.playwright.ts), served by the standalone content API and named
//   in PRISMIC_REPOSITORY; built into another folder, `.next-foreign` (NEXT_DIST_DIR);
// - `rtl`: the sample content with a right-to-left language added by an editor, `ar-ae`
//   (tests/fixtures/rtl-content.ts; tests/suites/rtl.playwright.ts), a folder outside the
//   repository that the embedded content API reads (CONTENT_DIR); built into the default `.next`.
// Run by those configs as their web server; writes the folder's manifest for the spec to check
// every routable document against, and what the copy showed of the build and the start
// (`.data/<name>/build-once.json`, tests/foreign/build-once.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generateFromModels } from '../fixtures/random-content'
import { addRtlLanguage } from '../fixtures/rtl-content'
import { copyRepository } from '../support/repository-copy'
import type { BuildOnceReport } from './build-once'
import { contentApiArgs } from '../support/content-api-cli'

const kind = process.env.FOREIGN_CONTENT || 'random'
if (kind !== 'random' && kind !== 'rtl')
  throw new Error(`FOREIGN_CONTENT must be "random" or "rtl", not "${kind}"`)
const sitePort = Number(process.env.FOREIGN_PORT || 3227)
const apiPort = sitePort + 1
/** Where this kind's manifest, dist dir and outbox go, apart from the other kind's. */
const name = kind === 'rtl' ? 'rtl' : 'foreign'
const dir = mkdtempSync(path.join(tmpdir(), `facet-${name}-`))

function randomFolder() {
  const seed = Number(process.env.FOREIGN_SEED || Math.floor(Math.random() * 2 ** 31))
  const { documents, masterLang } = generateFromModels(process.cwd(), dir, seed)
  // A site needs a home page: the first `page` of the folder becomes `home` in every language.
  const homeKey = documents.find((d) => d.type === 'page')?.key
  for (const doc of documents) {
    if (doc.type !== 'page' || doc.key !== homeKey) continue
    const file = path.join(dir, 'documents', 'page', doc.key, `${doc.lang}.json`)
    const json = JSON.parse(readFileSync(file, 'utf8'))
    json.uid = 'home'
    doc.uid = 'home'
    writeFileSync(file, JSON.stringify(json, null, 2))
  }
  console.log(`foreign content: seed ${seed}, ${documents.length} documents in ${dir}`)
  return { seed, dir, masterLang, documents }
}

function rtlFolder() {
  const { documents, masterLang } = addRtlLanguage('content', dir, process.cwd())
  console.log(`rtl content: ${documents.length} documents added in ar-ae, in ${dir}`)
  return { dir, masterLang, documents }
}

mkdirSync(`.data/${name}`, { recursive: true })
rmSync(`.data/${name}/build-once.json`, { force: true })
writeFileSync(
  `.data/${name}/manifest.json`,
  JSON.stringify(kind === 'rtl' ? rtlFolder() : randomFolder(), null, 2),
)

const children: ChildProcess[] = []
const stop = () => {
  for (const child of children) {
    try {
      child.kill('SIGTERM')
    } catch {
      /* gone */
    }
  }
}
process.on('exit', stop)
process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))

const start = (command: string, args: string[], env: NodeJS.ProcessEnv) => {
  // Children stay in this process's group, so that stopping the group stops them too.
  const child = spawn(command, args, { env, stdio: 'inherit' })
  children.push(child)
  return child
}

const base: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
// Only what is set below decides where content comes from and where the build goes.
for (const variable of ['SITE_URL', 'NEXT_DIST_DIR', 'CONTENT_DIR', 'PRISMIC_REPOSITORY', 'PORT'])
  delete base[variable]

// The foreign folder is served by the standalone content API, which the spec stops to see how the
// running site answers when its CMS goes away.
if (kind === 'random') {
  const api = start(process.execPath, contentApiArgs(apiPort, dir, '--models', '.'), {
    ...base,
    NODE_ENV: 'production',
  })
  writeFileSync(`.data/${name}/content-api.pid`, String(api.pid))
}

/** The default folder for one build, another folder for the other: both are what publishers use. */
const folder = kind === 'rtl' ? '.next' : `.next-${name}`
const siteUrl = `http://127.0.0.1:${sitePort}`
const siteEnv: NodeJS.ProcessEnv = {
  ...base,
  ...(kind === 'rtl'
    ? { CONTENT_DIR: dir }
    : { PRISMIC_REPOSITORY: `http://127.0.0.1:${apiPort}/api/v2`, NEXT_DIST_DIR: folder }),
  SITE_URL: siteUrl,
  PORT: String(sitePort),
  LISTEN_HOST: '127.0.0.1',
  // The repository's own folders, not the copy's: the spec reads the outbox, and the model
  // variants the main build made serve this build too.
  OUTBOX_DIR: path.resolve(`.data/${name}-outbox`),
  MODEL_CACHE_DIR: path.resolve(process.env.MODEL_CACHE_DIR || '.data/model-cache'),
}

const copy = copyRepository(name)
process.on('exit', () => {
  copy.remove()
  rmSync(dir, { recursive: true, force: true })
})
const readBuild = () => ({
  id: readFileSync(path.join(copy.dir, folder, 'BUILD_ID'), 'utf8'),
  stamp: readFileSync(path.join(copy.dir, folder, 'facet-build.json'), 'utf8'),
})

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok
  } catch {
    return false
  }
}

async function main() {
  // The content API must answer before the build asks it for content.
  for (let i = 0; kind === 'random' && i < 120; i++) {
    if (await answers(`http://127.0.0.1:${apiPort}/api/v2`)) break
    await new Promise((r) => setTimeout(r, 250))
  }
  // `npm run build` (next build, compile hints, Brotli copies, stamp) into the folder.
  try {
    copy.run('npm', ['run', 'build'], siteEnv)
  } catch (error) {
    console.error(`The site did not build against the ${name} content folder.`)
    console.error((error as Error).message)
    process.exit(1)
  }
  const report: Partial<BuildOnceReport> = {
    folder,
    afterBuild: copy.status(),
    built: readBuild(),
  }
  // `npm start`, which must serve that build without building again. Its output is shown, and
  // kept for the spec.
  let started = ''
  const server = spawn('npm', ['start'], { cwd: copy.dir, env: siteEnv })
  children.push(server)
  for (const stream of [server.stdout!, server.stderr!])
    stream.on('data', (chunk: Buffer) => {
      started += chunk
      process.stdout.write(chunk)
    })
  server.on('exit', (code) => {
    console.error(`npm start ended (${code}) in the ${name} copy`)
    process.exit(1)
  })
  while (!(await answers(`${siteUrl}/robots.txt`))) await new Promise((r) => setTimeout(r, 250))
  writeFileSync(
    `.data/${name}/build-once.json`,
    JSON.stringify({ ...report, started, served: readBuild(), afterStart: copy.status() }),
  )
}

void main()
