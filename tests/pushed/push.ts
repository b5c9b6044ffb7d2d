// The pushed repository for tests/pushed: an empty writable stand-in (docs/prismic-write-apis.md)
// that publishes its migration release when the push's last write lands, filled from content/ by
// `prismic:push` as a fork's developer would fill their repository.
//
// The push waits 1.5 s between writes (the write client's own pacing), so it takes minutes while
// using almost no processor: `npm test` runs this file at its start (the pushed stage's
// `prepare`, tests/suites/index.mjs), beside the other stages, and tests/pushed/serve.ts then
// serves the folder it filled. Run alone, serve.ts pushes first itself.
//
// `node --import tsx tests/pushed/prepare.ts DIR` pushes into DIR (emptied first), then writes
// `DIR.pushed` once the push has ended well.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { contentApiArgs } from '../support/content-api-cli'

/** The port the pushed repository's content API listens on (the site's port + 1). */
export const apiPort = Number(process.env.PUSHED_PORT || 3237) + 1
export const repository = `http://127.0.0.1:${apiPort}/api/v2`

const base = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }

/** Serves `dir` as a writable repository on `apiPort`; resolves once it answers. */
export async function serveRepository(dir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    contentApiArgs(apiPort, dir, '--writable', '--publish-migrations'),
    { env: { ...base, NODE_ENV: 'production' }, stdio: 'inherit' },
  )
  for (let i = 0; i < 120 && child.exitCode === null; i++) {
    try {
      if ((await fetch(repository)).ok) return child
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill('SIGTERM')
  throw new Error(`the pushed repository's content API did not answer on ${repository}`)
}

/** Fills the repository served on `apiPort` from content/; throws when the push fails. */
export function pushContent(dir: string): void {
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/prismic/push-cli.ts',
      '--repository',
      repository,
      '--state',
      path.join(path.dirname(dir), `${path.basename(dir)}-state.json`),
    ],
    { env: { ...base, PRISMIC_WRITE_TOKEN: 'any' }, stdio: 'inherit' },
  )
  if (result.status !== 0) throw new Error(`the push into ${dir} failed (exit ${result.status})`)
}

/** Where a finished push into `dir` leaves its mark. */
export const pushedMark = (dir: string) => `${path.resolve(dir)}.pushed`

/** Empties `dir`, fills it by a push, and marks it pushed (`pushedMark`). */
export async function pushInto(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true })
  rmSync(pushedMark(dir), { force: true })
  rmSync(path.join(path.dirname(dir), `${path.basename(dir)}-state.json`), { force: true })
  const api = await serveRepository(dir)
  try {
    pushContent(dir)
    writeFileSync(pushedMark(dir), `${new Date().toISOString()}\n`)
  } finally {
    api.kill('SIGTERM')
    await new Promise((resolve) => api.once('exit', resolve))
  }
}
