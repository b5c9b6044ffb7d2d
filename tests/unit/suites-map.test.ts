import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { stages, type Stage } from '../suites/index.mjs'
import sync from '../suites/sync.vitest'
import units from '../suites/units.vitest'
import { BROWSER_FILES } from '../suites/vitest-shared'

// tests/suites/index.mjs is the one list `npm test` runs and the README shows: each suite's
// configuration is named after its stage, and no configuration in the folder is left out of it.
describe('the map of the suites', () => {
  const suites = stages.filter(
    (stage): stage is Extract<Stage, { config: string }> =>
      stage.kind === 'vitest' || stage.kind === 'playwright',
  )

  it('names each stage once', () => {
    const names = stages.map((stage) => stage.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('names each suite configuration after its stage, and each exists', () => {
    for (const suite of suites) {
      expect(suite.config).toBe(`tests/suites/${suite.name}.${suite.kind}.ts`)
      expect(existsSync(suite.config), suite.config).toBe(true)
    }
  })

  it('lists every configuration in tests/suites/', () => {
    const configs = readdirSync('tests/suites')
      .filter((file) => /\.(vitest|playwright)\.ts$/.test(file))
      .map((file) => `tests/suites/${file}`)
      .sort()
    expect(configs).toEqual(suites.map((suite) => suite.config).sort())
  })

  it('runs the production build before every stage that needs it', () => {
    const build = stages.findIndex((stage) => stage.kind === 'build')
    stages.forEach((stage, index) => {
      if (stage.afterBuild) expect(index, stage.name).toBeGreaterThan(build)
    })
  })

  it('runs each unit and conformance file in exactly one stage: units or sync', () => {
    const files = ['tests/unit', 'tests/conformance'].flatMap((dir) =>
      readdirSync(dir)
        .filter((file) => /\.test\.tsx?$/.test(file))
        .map((file) => path.join(dir, file)),
    )
    const inSync = new Set(sync.test!.include)
    // test:quick also leaves out the files that need a browser (they still run in npm test).
    const excluded = new Set(units.test!.exclude!.filter((file) => !BROWSER_FILES.includes(file)))
    for (const file of inSync) expect(files, `${file} (sync)`).toContain(file)
    for (const file of files)
      expect(inSync.has(file), `${file}: in sync, or else in units`).toBe(excluded.has(file))
    expect(inSync.size).toBeGreaterThan(0)
  })

  it('runs beside the others only stages that need no build, and none that is prepared', () => {
    for (const stage of stages.filter((s) => s.beside)) {
      expect(stage.afterBuild, stage.name).toBeFalsy()
      expect(stage.kind, stage.name).not.toBe('build')
      expect(stage.prepare, stage.name).toBeUndefined()
    }
    for (const stage of stages.filter((s) => s.prepare)) {
      expect(stage.beside, stage.name).toBeFalsy()
      expect(existsSync(stage.prepare!.args[0]!), stage.prepare!.args[0]).toBe(true)
    }
  })
})
