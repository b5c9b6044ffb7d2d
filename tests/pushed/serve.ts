// Serves two builds of the site side by side for tests/pushed: the main build, from content/
// through the embedded content API, and a build against a repository that `prismic:push` filled:
// an empty writable stand-in (docs/prismic-write-apis.md) that publishes its migration release
// when the push's last write lands, named in PRISMIC_REPOSITORY as a fork's repository would be.
// Run by tests/suites/pushed.playwright.ts as its web server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const sitePort = Number(process.env.PUSHED_PORT || 3237)
const apiPort = sitePort + 1
const mainPort = sitePort + 2
const dir = mkdtempSync(path.join(tmpdir(), 'facet-pushed-'))

const children: ChildProcess[] = []
process.on('exit', () => {
  for (const child of children) {
    try {
      child.kill('SIGTERM')
    } catch {
      /* gone */
    }
  }
})
process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))

const base = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const start = (args: string[], env: NodeJS.ProcessEnv) => {
  const child = spawn(process.execPath, args, { env, stdio: 'inherit' })
  children.push(child)
  return child
}
const run = (what: string, args: string[], env: NodeJS.ProcessEnv) => {
  const result = spawnSync(process.execPath, args, { env, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error(`pushed site: ${what} failed.`)
    process.exit(1)
  }
}

async function main() {
  const repository = `http://127.0.0.1:${apiPort}/api/v2`
  start(
    [
      '--import',
      'tsx',
      'services/content-api/cli.ts',
      '--port',
      String(apiPort),
      '--content',
      dir,
      '--writable',
      '--publish-migrations',
    ],
    { ...base, NODE_ENV: 'production' },
  )
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(repository)).ok) break
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  run(
    'the push',
    [
      '--import',
      'tsx',
      'scripts/prismic/push-cli.ts',
      '--repository',
      repository,
      '--state',
      path.join(dir, '..', `${path.basename(dir)}-state.json`),
    ],
    {
      ...base,
      PRISMIC_WRITE_TOKEN: 'any',
    },
  )
  const siteEnv = {
    ...base,
    PRISMIC_REPOSITORY: repository,
    SITE_URL: `http://127.0.0.1:${sitePort}`,
    NEXT_DIST_DIR: '.next-pushed',
    OUTBOX_DIR: '.data/pushed-outbox',
  }
  // `npm run build`'s steps (next build, compile hints, Brotli copies, stamp), into .next-pushed.
  run('the build against the pushed repository', ['scripts/build.mjs'], siteEnv)
  start(['server/index.mjs'], { ...siteEnv, PORT: String(sitePort), LISTEN_HOST: '127.0.0.1' })
  // Playwright waits for the main build's server, so start it once this one answers.
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${sitePort}/robots.txt`)).ok) break
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  // The main build, as `npm test` made it (same SITE_URL, so start.mjs does not rebuild it).
  start(['scripts/start.mjs'], {
    ...base,
    PORT: String(mainPort),
    LISTEN_HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${process.env.E2E_PORT || 3217}`,
  })
}

void main()
