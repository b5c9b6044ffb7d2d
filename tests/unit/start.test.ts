import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markServing } from '../../server/serving-marks.mjs'

// `npm start` as a user runs it, up to the point where it would build: its build folder is in
// use by another live process, so it stops there with its message instead of building.
let distDir: string
let other: ReturnType<typeof spawn>
beforeAll(async () => {
  distDir = path.join(mkdtempSync(path.join(tmpdir(), 'facet-start-')), '.next')
  other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
  await new Promise((resolve) => other.once('spawn', resolve))
  markServing(distDir, other.pid)
})
afterAll(() => {
  other.kill('SIGKILL')
  rmSync(path.dirname(distDir), { recursive: true, force: true })
})

function start(env: Record<string, string>) {
  const { SITE_URL: _unset, ...rest } = process.env
  return spawnSync(process.execPath, ['scripts/start.mjs'], {
    env: { ...rest, NEXT_DIST_DIR: distDir, ...env },
    encoding: 'utf8',
  })
}

describe('npm start', () => {
  it('says clearly when SITE_URL is unset, and what it should be', () => {
    const run = start({})
    expect(run.stderr).toMatch(/SITE_URL is not set/)
    expect(run.stderr).toMatch(/canonical URLs, Open Graph tags and sitemap/)
  })

  it('says nothing about SITE_URL when it is set', () => {
    expect(start({ SITE_URL: 'https://studio.example' }).stderr).not.toMatch(/SITE_URL/)
  })

  it('refuses to rebuild a build that another server uses, and says which', () => {
    const run = start({ SITE_URL: 'https://studio.example' })
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/Building the site: no production build yet/)
    expect(run.stderr).toContain(`in use by the server ${other.pid}`)
  })
})
