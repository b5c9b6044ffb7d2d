import { separateBuildConfig } from './separate-build'

/**
 * The site built against the sample content with a right-to-left language added (`ar-ae`, by
 * tests/fixtures/rtl-content.ts), served by tests/foreign/serve.ts with FOREIGN_CONTENT=rtl: a
 * build of its own, on a copy of the repository, beside the main one.
 */
const port = Number(process.env.RTL_PORT || 3247)

export default separateBuildConfig({
  testDir: 'tests/rtl',
  port,
  serve: 'tests/foreign/serve.ts',
  env: { FOREIGN_CONTENT: 'rtl', FOREIGN_PORT: String(port) },
})
