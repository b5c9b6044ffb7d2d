import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

// `next build` runs Next's own writeConfigurationDefaults on tsconfig.json with the build's
// folder (NEXT_DIST_DIR). Had it rewritten the file, a build into a new folder would leave a
// tracked file changed and newer than the build's stamp, and `npm start` would build again.
const require = createRequire(import.meta.url)
const {
  writeConfigurationDefaults,
} = require('next/dist/lib/typescript/writeConfigurationDefaults.js')

const dir = mkdtempSync(path.join(tmpdir(), 'facet-tsconfig-'))
const tsconfig = path.join(dir, 'tsconfig.json')
copyFileSync('tsconfig.json', tsconfig)
const original = readFileSync(tsconfig, 'utf8')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('tsconfig.json', () => {
  it.each(['.next', '.next-other', '.next-big', 'build/site'])(
    'is left as it is by a build into %s',
    async (distDir) => {
      await writeConfigurationDefaults(ts.version, tsconfig, false, true, distDir, false, false)
      expect(readFileSync(tsconfig, 'utf8')).toBe(original)
    },
  )

  it('gives TypeScript the route types of .next and of any .next-* folder', () => {
    for (const folder of ['.next', '.next-other', '.next-other/dev'])
      mkdirSync(path.join(dir, folder, 'types'), { recursive: true })
    writeFileSync(path.join(dir, '.next', 'types', 'routes.d.ts'), 'export {}\n')
    writeFileSync(path.join(dir, '.next-other', 'types', 'validator.ts'), 'export {}\n')
    writeFileSync(path.join(dir, '.next-other', 'dev', 'types', 'routes.d.ts'), 'export {}\n')
    const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile)
    const { fileNames } = ts.parseJsonConfigFileContent(config, ts.sys, dir)
    expect(fileNames.map((file) => path.relative(dir, file)).sort()).toEqual([
      '.next-other/dev/types/routes.d.ts',
      '.next-other/types/validator.ts',
      '.next/types/routes.d.ts',
    ])
  })
})
