// Builds the production site when there is no build, when a source or content file is newer
// than it, or when it was made with other settings (SITE_URL, content source, EmailJS ids).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describeFinishedBuild, finishBuild } from './lib/static-assets.mjs'

const INPUTS = [
  'src',
  'services',
  'content',
  'customtypes',
  'public',
  'next.config.ts',
  'package-lock.json',
  'prismicio-types.d.ts',
  'tsconfig.json',
]
const STAMP = path.join('.next', 'facet-build.json')

function newest(target) {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let max = stat.mtimeMs
  for (const entry of readdirSync(target)) max = Math.max(max, newest(path.join(target, entry)))
  return max
}

/** What the build depends on beyond files: the settings inlined or used at build time. */
export function buildSettings(env = process.env) {
  const keys = Object.keys(env)
    .filter(
      (k) =>
        k.startsWith('NEXT_PUBLIC_') ||
        ['SITE_URL', 'PRISMIC_REPOSITORY', 'PRISMIC_ACCESS_TOKEN', 'CONTENT_DIR'].includes(k),
    )
    .sort()
  const hash = createHash('sha256')
  for (const k of keys) hash.update(`${k}=${env[k]}\n`)
  return hash.digest('hex')
}

export function buildIfNeeded(env = process.env) {
  const settings = buildSettings(env)
  let reason
  if (!existsSync(path.join('.next', 'BUILD_ID')) || !existsSync(STAMP))
    reason = 'no production build yet'
  else {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'))
    if (stamp.settings !== settings)
      reason = 'the build settings changed (SITE_URL, content source or EmailJS ids)'
    else if (Math.max(...INPUTS.map(newest)) > stamp.builtAt)
      reason = 'sources or content changed since the last build'
  }
  if (!reason) return false
  console.log(`Building the site: ${reason}.`)
  const startedAt = Date.now()
  const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    stdio: 'inherit',
    env,
  })
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.')
    process.exit(result.status ?? 1)
  }
  console.log(describeFinishedBuild(finishBuild(env.NEXT_DIST_DIR || '.next')))
  writeFileSync(STAMP, JSON.stringify({ settings, builtAt: startedAt }))
  return true
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded()
