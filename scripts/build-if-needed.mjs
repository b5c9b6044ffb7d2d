// Builds the production site, and knows when a build is needed.
//
// `build()` (what `npm run build` runs) makes the build and leaves a stamp in it: the settings it
// was made with and when it started. `buildIfNeeded()` (what `npm start` runs first) builds only
// when there is no build or stamp, when a source or content file is newer than the stamp, or when
// a setting inlined into the build (SITE_URL, the content source, the EmailJS ids, any
// NEXT_PUBLIC_ variable) differs from the stamp's. PORT is not one of them: the same build serves
// on any port, under any host name.
//
// Neither replaces a build that a running server uses (server/serving-marks.mjs), nor runs while
// another build of the same folder is under way.
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describeFinishedBuild, finishBuild } from './lib/static-assets.mjs'
import { liveServers } from '../server/serving-marks.mjs'

/** Files and folders whose change makes a new build. */
const INPUTS = [
  'src',
  'services',
  'rules',
  'content',
  'customtypes',
  'public',
  'next.config.ts',
  'package-lock.json',
  'prismicio-types.d.ts',
  'tsconfig.json',
  // Next.js reads these at build time, and inlines what they set.
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
]

/** Variables that are not NEXT_PUBLIC_ but still shape what the build writes. */
const BUILD_VARIABLES = ['SITE_URL', 'PRISMIC_REPOSITORY', 'PRISMIC_ACCESS_TOKEN', 'CONTENT_DIR']

/** Thrown when a build cannot run now; its message says why and what to do. */
export class BuildRefused extends Error {
  constructor(message) {
    super(message)
    this.name = 'BuildRefused'
  }
}

function distDirOf(env) {
  return env.NEXT_DIST_DIR || '.next'
}

function stampPath(distDir) {
  return path.join(distDir, 'facet-build.json')
}

function newest(target) {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let max = stat.mtimeMs
  for (const entry of readdirSync(target)) max = Math.max(max, newest(path.join(target, entry)))
  return max
}

/** A digest of the settings inlined or used at build time (never PORT). */
export function buildSettings(env = process.env) {
  const keys = Object.keys(env)
    .filter((k) => k.startsWith('NEXT_PUBLIC_') || BUILD_VARIABLES.includes(k))
    .filter((k) => env[k] !== undefined && env[k] !== '')
    .sort()
  const hash = createHash('sha256')
  for (const k of keys) hash.update(`${k}=${env[k]}\n`)
  return hash.digest('hex')
}

/** Why the build in `distDir` cannot serve with `env`, or undefined when it can. */
export function rebuildReason(env = process.env, { cwd = process.cwd() } = {}) {
  const distDir = path.resolve(cwd, distDirOf(env))
  const stamp = stampPath(distDir)
  if (!existsSync(path.join(distDir, 'BUILD_ID')) || !existsSync(stamp))
    return 'no production build yet'
  const { settings, builtAt } = JSON.parse(readFileSync(stamp, 'utf8'))
  if (settings !== buildSettings(env))
    return 'the build settings changed (SITE_URL, content source, EmailJS ids or NEXT_PUBLIC_ variables)'
  if (Math.max(...INPUTS.map((input) => newest(path.resolve(cwd, input)))) > builtAt)
    return 'sources or content changed since the last build'
  return undefined
}

/**
 * Holds the build lock of `distDir` (`<distDir>.build-lock`, holding the builder's pid) while
 * `work` runs. A lock left by a process that died is taken over.
 */
function withBuildLock(distDir, work) {
  const lock = `${distDir}.build-lock`
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' })
  } catch {
    const holder = Number(readFileSync(lock, 'utf8'))
    if (holder !== process.pid && isAlive(holder))
      throw new BuildRefused(
        `Another build of ${distDir} is under way (process ${holder}). Wait for it to finish, then start again.`,
      )
    writeFileSync(lock, String(process.pid))
  }
  try {
    return work()
  } finally {
    rmSync(lock, { force: true })
  }
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error?.code === 'EPERM'
  }
}

/**
 * Makes the production build with `env`: `next build`, the compile hints and Brotli copies
 * (scripts/lib/static-assets.mjs), then the stamp. Throws `BuildRefused` when a live server
 * uses the build folder or another build of it is under way; exits when the build fails.
 */
export function build(env = process.env) {
  const distDir = distDirOf(env)
  const servers = liveServers(distDir)
  if (servers.length > 0)
    throw new BuildRefused(
      `The build in ${distDir} is in use by the server${servers.length > 1 ? 's' : ''} ` +
        `${servers.join(', ')}; rebuilding it in place would change the pages under ` +
        `${servers.length > 1 ? 'them' : 'it'}. Stop ${servers.length > 1 ? 'them' : 'it'} first, ` +
        'or build into a folder of its own (NEXT_DIST_DIR=.next-other).',
    )
  withBuildLock(distDir, () => {
    const settings = buildSettings(env)
    const startedAt = Date.now()
    const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
      stdio: 'inherit',
      env,
    })
    if (result.status !== 0) {
      console.error('The build failed; see the messages above.')
      process.exit(result.status ?? 1)
    }
    console.log(describeFinishedBuild(finishBuild(distDir)))
    // The published models' variants, both tiers, into the model cache (docs/3d-models.md).
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/models/warm.ts'], {
      stdio: 'inherit',
      env,
    })
    writeFileSync(stampPath(distDir), JSON.stringify({ settings, builtAt: startedAt }))
  })
}

/** Builds when `rebuildReason` gives a reason; returns whether it built. */
export function buildIfNeeded(env = process.env) {
  const reason = rebuildReason(env)
  if (!reason) return false
  console.log(`Building the site: ${reason}.`)
  build(env)
  return true
}

/** Runs `work`, turning a refused build into its message and exit code 1. */
export function exitOnRefusal(work) {
  try {
    return work()
  } catch (error) {
    if (!(error instanceof BuildRefused)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) exitOnRefusal(() => buildIfNeeded())
