// Serves two builds of the site side by side for tests/pushed: the main build, from content/
// through the embedded content API, and a build against a repository that `prismic:push` filled
// (tests/pushed/push.ts), named in PRISMIC_REPOSITORY as a fork's repository would be.
// PUSHED_REPOSITORY_DIR names a folder that push.ts already filled (`npm test` fills it beside the
// stages before this one); without it, this pushes into a new folder first.
// Run by tests/suites/pushed.playwright.ts as its web server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pushedMark, pushInto, repository, serveRepository } from './push'

const sitePort = Number(process.env.PUSHED_PORT || 3237)
const mainPort = sitePort + 2

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
  const prepared = process.env.PUSHED_REPOSITORY_DIR
  let dir: string
  if (prepared) {
    dir = path.resolve(prepared)
    if (!existsSync(pushedMark(dir))) {
      console.error(
        `pushed site: PUSHED_REPOSITORY_DIR names ${dir}, which no finished push filled (no ${pushedMark(dir)}).`,
      )
      process.exit(1)
    }
  } else {
    dir = path.join(mkdtempSync(path.join(tmpdir(), 'facet-pushed-')), 'repository')
    await pushInto(dir)
  }
  children.push(await serveRepository(dir))
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

main().catch((error: unknown) => {
  console.error(`pushed site: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
