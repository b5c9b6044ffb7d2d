import { existsSync, readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'

/**
 * What a publisher's `npm run build` then `npm start` did on a fresh copy of the repository
 * (tests/foreign/serve.ts, which builds the foreign and the right-to-left sites this way): the
 * build goes into `folder` (the default `.next`, or another that NEXT_DIST_DIR names, as
 * docs/deploy.md advises) from a content folder outside the repository; the start serves that
 * build without building again, and neither command changes a tracked file. tests/unit/
 * tsconfig-untouched.test.ts also runs Next's own tsconfig writer for other folders.
 */
export type BuildOnceReport = {
  folder: string
  /** `git status --porcelain` in the copy after the build, then once the site answered. */
  afterBuild: string
  afterStart: string
  /** The build's id and stamp after the build, then once the site answered. */
  built: { id: string; stamp: string }
  served: { id: string; stamp: string }
  /** What `npm start` printed. */
  started: string
}

/** The report of the site `name` (foreign, rtl), written once its server answers. */
async function report(name: string): Promise<BuildOnceReport> {
  const file = `.data/${name}/build-once.json`
  await expect.poll(() => existsSync(file), { message: `${file} is written` }).toBe(true)
  return JSON.parse(readFileSync(file, 'utf8'))
}

/** The two checks of a publisher's build and start, on the site `name`. */
export function buildOnceTests(name: string, folder: string) {
  test.describe(`npm run build, then npm start, into ${folder}`, () => {
    test('leaves every tracked file as it was, and nothing new outside ignored folders', async () => {
      const { afterBuild, folder: built } = await report(name)
      expect(built).toBe(folder)
      expect(afterBuild).toBe('')
    })

    test('serves that build with npm start, without building again', async () => {
      const { started, built, served, afterStart } = await report(name)
      expect(started).toContain('Facet is serving on')
      expect(started).not.toContain('Building the site')
      expect(served).toEqual(built)
      expect(afterStart).toBe('')
    })
  })
}
