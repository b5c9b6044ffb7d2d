import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { stages, type Stage } from '../suites/index.mjs'

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
})
