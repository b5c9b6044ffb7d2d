// Serves the site built against a content folder of its own, in its own dist dir, beside the
// main build, as a developer pointing a fork at their own content would: the folder is served by
// the standalone content API and named in PRISMIC_REPOSITORY. Two folders, by FOREIGN_CONTENT:
// - `random` (default): generated from the project's models with a fresh seed, a folder no test
//   has seen (tests/suites/foreign.playwright.ts);
// - `rtl`: the sample content with a right-to-left language added by an editor, `ar-ae`
//   (tests/fixtures/rtl-content.ts; tests/suites/rtl.playwright.ts).
// Run by those configs as their web server; writes the folder's manifest for the spec to check
// every routable document against.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generateFromModels } from '../fixtures/random-content'
import { addRtlLanguage } from '../fixtures/rtl-content'

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

const base = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const api = start(
  process.execPath,
  [
    '--import',
    'tsx',
    'services/content-api/cli.ts',
    '--port',
    String(apiPort),
    '--content',
    dir,
    '--models',
    '.',
  ],
  {
    ...base,
    NODE_ENV: 'production',
  },
)

// The spec stops the content API to see how the running site answers when its CMS goes away.
writeFileSync(`.data/${name}/content-api.pid`, String(api.pid))

const siteEnv = {
  ...base,
  PRISMIC_REPOSITORY: `http://127.0.0.1:${apiPort}/api/v2`,
  SITE_URL: `http://127.0.0.1:${sitePort}`,
  NEXT_DIST_DIR: `.next-${name}`,
  OUTBOX_DIR: `.data/${name}-outbox`,
}
async function main() {
  // The content API must answer before the build asks it for content.
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${apiPort}/api/v2`)).ok) break
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  // `npm run build`'s steps (next build, compile hints, Brotli copies, stamp), into .next-foreign.
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], {
    env: siteEnv,
    stdio: 'inherit',
  })
  if (build.status !== 0) {
    console.error(`The site did not build against the ${name} content folder.`)
    process.exit(1)
  }
  start(process.execPath, ['server/index.mjs'], {
    ...siteEnv,
    PORT: String(sitePort),
    LISTEN_HOST: '127.0.0.1',
  })
}

void main()
