import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../conformance/helpers'

/**
 * `npm run build` then `npm start` with the same settings, as a publisher runs them on a fresh
 * copy of the repository: the build goes into a folder of its own (NEXT_DIST_DIR=.next-other, as
 * docs/deploy.md advises) from a content folder outside the repository (CONTENT_DIR); the start
 * serves that build without building again, and neither command changes a tracked file.
 *
 * Both ways, one build each: `.next` (the default folder) and `.next-other` (the folder where
 * Next.js used to rewrite tsconfig.json). tests/unit/tsconfig-untouched.test.ts also runs Next's
 * own tsconfig writer for other folders. BUILD_ONCE_FOLDERS=… names other folders to build into.
 */
const FOLDERS = (process.env.BUILD_ONCE_FOLDERS || '.next,.next-other').split(',').filter(Boolean)
const REPO = process.cwd()
let work: string
let copy: string
let contentDir: string

/** Runs a command in the copy, failing with its output when it fails. */
function inCopy(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const run = spawnSync(command, args, { cwd: copy, env, encoding: 'utf8' })
  const output = `${run.stdout}${run.stderr}`
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${output}`)
  return output
}

const git = (...args: string[]) =>
  inCopy('git', ['-c', 'user.name=facet', '-c', 'user.email=facet@example.invalid', ...args])

/** Copies `files` and a hard-linked node_modules into `<base>/repo`; false when links cannot be made. */
function copyInto(base: string, files: string[]): boolean {
  work = base
  copy = path.join(work, 'repo')
  for (const file of files) cpSync(file, path.join(copy, file), { preserveTimestamps: true })
  return spawnSync('cp', ['-al', 'node_modules', path.join(copy, 'node_modules')]).status === 0
}

beforeAll(() => {
  // The working tree as it is (tracked files and new ones not ignored), committed in a fresh
  // repository so that `git status` shows whatever a command changes.
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      encoding: 'utf8',
    },
  )
  if (listed.status !== 0)
    throw new Error(`the repository must be a git checkout: ${listed.stderr}`)
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(file))
  // node_modules is copied as hard links (Turbopack refuses a symlinked node_modules), which
  // cannot cross file systems: beside the repository when the temporary folder is on another.
  if (!copyInto(mkdtempSync(path.join(tmpdir(), 'facet-build-once-')), files)) {
    rmSync(work, { recursive: true, force: true })
    if (!copyInto(mkdtempSync(path.join(path.dirname(REPO), '.facet-build-once-')), files))
      throw new Error(`cannot hard-link node_modules into ${copy}`)
  }
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'copy')
  contentDir = path.join(work, 'content')
  cpSync(path.join(REPO, 'content'), contentDir, { recursive: true })
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe.each(FOLDERS)('npm run build, then npm start, into %s', (folder) => {
  let env: NodeJS.ProcessEnv
  let built: { id: string; stamp: string }
  let server: ChildProcess | undefined
  let started = ''
  const dist = () => path.join(copy, folder)
  const read = () => ({
    id: readFileSync(path.join(dist(), 'BUILD_ID'), 'utf8'),
    stamp: readFileSync(path.join(dist(), 'facet-build.json'), 'utf8'),
  })

  beforeAll(async () => {
    const port = await freePort()
    const { SITE_URL: _site, NEXT_DIST_DIR: _dist, ...rest } = process.env
    env = {
      ...rest,
      NEXT_TELEMETRY_DISABLED: '1',
      SITE_URL: `http://127.0.0.1:${port}`,
      CONTENT_DIR: contentDir,
      OUTBOX_DIR: path.join(work, 'outbox'),
      PORT: String(port),
      LISTEN_HOST: '127.0.0.1',
      ...(folder === '.next' ? {} : { NEXT_DIST_DIR: folder }),
    }
    inCopy('npm', ['run', 'build'], env)
    built = read()
  })
  afterAll(async () => {
    if (!server?.pid || server.exitCode !== null) return
    process.kill(-server.pid, 'SIGTERM')
    await new Promise((resolve) => server!.once('exit', resolve))
  })

  it('leaves every tracked file as it was, and nothing new outside ignored folders', () => {
    expect(git('status', '--porcelain')).toBe('')
  })

  it('serves that build with npm start, without building again', async () => {
    // Its own process group, so that stopping it stops npm and the server under it.
    server = spawn('npm', ['start'], { cwd: copy, env, detached: true })
    server.stdout!.on('data', (chunk) => (started += chunk))
    server.stderr!.on('data', (chunk) => (started += chunk))
    const deadline = Date.now() + 120_000
    let status = 0
    while (Date.now() < deadline && server.exitCode === null) {
      status = await fetch(`${env.SITE_URL}/en-us`).then(
        (response) => response.status,
        () => 0,
      )
      if (status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(status, started).toBe(200)
    expect(started).toContain('Facet is serving on')
    expect(started).not.toContain('Building the site')
    expect(read()).toEqual(built)
    expect(git('status', '--porcelain')).toBe('')
  })
})
