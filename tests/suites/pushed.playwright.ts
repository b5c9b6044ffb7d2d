import { separateBuildConfig } from './separate-build'

/**
 * The site built against a repository filled by `prismic:push` (tests/pushed/serve.ts), beside
 * the main build, which the spec compares it with page by page.
 */
const port = Number(process.env.PUSHED_PORT || 3237)

export default separateBuildConfig({
  testDir: 'tests/pushed',
  port,
  serve: 'tests/pushed/serve.ts',
  env: { PUSHED_PORT: String(port) },
  // Both sites must answer: the pushed one, and the main build beside it.
  readyURL: `http://127.0.0.1:${port + 2}/robots.txt`,
  // The push alone takes about three and a half minutes (writes 1,500 ms apart), then a build;
  // `npm test` pushes beside the stages before this one (PUSHED_REPOSITORY_DIR, serve.ts).
  timeout: 900_000,
})
