import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  BuildRefused,
  build,
  buildSettings,
  rebuildReason,
} from '../../scripts/build-if-needed.mjs'
import { liveServers, markServing } from '../../server/serving-marks.mjs'

// A project folder with a finished build in it: the stamp `npm run build` leaves, newer than
// every source.
const folders: string[] = []
function builtProject(env: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-build-'))
  folders.push(dir)
  mkdirSync(path.join(dir, 'src'))
  writeFileSync(path.join(dir, 'src', 'page.tsx'), 'export default 1')
  mkdirSync(path.join(dir, '.next'))
  writeFileSync(path.join(dir, '.next', 'BUILD_ID'), 'x')
  writeFileSync(
    path.join(dir, '.next', 'facet-build.json'),
    JSON.stringify({ settings: buildSettings(env), builtAt: Date.now() + 60_000 }),
  )
  return dir
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('when npm start builds', () => {
  it('serves the build npm run build made, on any port', () => {
    const cwd = builtProject({ SITE_URL: 'https://studio.example' })
    for (const PORT of ['3000', '4700', ''])
      expect(rebuildReason({ SITE_URL: 'https://studio.example', PORT }, { cwd })).toBeUndefined()
  })

  it('rebuilds when a setting inlined into the build changes', () => {
    const cwd = builtProject({ SITE_URL: 'https://studio.example' })
    expect(rebuildReason({ SITE_URL: 'https://other.example' }, { cwd })).toMatch(/settings/)
    expect(
      rebuildReason(
        { SITE_URL: 'https://studio.example', NEXT_PUBLIC_EMAILJS_THROTTLE_MS: '5' },
        { cwd },
      ),
    ).toMatch(/settings/)
  })

  it('rebuilds when a source is newer than the build, or there is no stamp', () => {
    const cwd = builtProject({})
    writeFileSync(
      path.join(cwd, '.next', 'facet-build.json'),
      JSON.stringify({ settings: buildSettings({}), builtAt: 0 }),
    )
    expect(rebuildReason({}, { cwd })).toMatch(/sources or content changed/)
    rmSync(path.join(cwd, '.next', 'facet-build.json'))
    expect(rebuildReason({}, { cwd })).toMatch(/no production build/)
  })

  it('refuses to rebuild a build that a running server uses, naming the server', async () => {
    const distDir = path.join(builtProject({}), '.next')
    // Another process serving this build.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
    try {
      await new Promise((resolve) => other.once('spawn', resolve))
      markServing(distDir, other.pid)
      expect(liveServers(distDir)).toEqual([other.pid])
      expect(() => build({ NEXT_DIST_DIR: distDir })).toThrow(BuildRefused)
      expect(() => build({ NEXT_DIST_DIR: distDir })).toThrow(
        new RegExp(`in use by the server ${other.pid}`),
      )
    } finally {
      other.kill('SIGKILL')
      await new Promise((resolve) => other.once('exit', resolve))
    }
    // A mark left by a process that has gone is cleared.
    expect(liveServers(distDir)).toEqual([])
  })
})
