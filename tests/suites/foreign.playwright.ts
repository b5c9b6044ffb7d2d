import { separateBuildConfig } from './separate-build'

/**
 * The site built against a content folder no test has seen (tests/foreign/serve.ts): a separate
 * build in `.next-foreign`, on a copy of the repository, served beside the main one.
 */
const port = Number(process.env.FOREIGN_PORT || 3227)

export default separateBuildConfig({
  testDir: 'tests/foreign',
  port,
  serve: 'tests/foreign/serve.ts',
  env: { FOREIGN_PORT: String(port) },
})
