import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * The site built against a repository filled by `prismic:push` (tests/pushed/serve.ts), beside
 * the main build, which the spec compares it with page by page.
 */
const port = Number(process.env.PUSHED_PORT || 3237)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  ...base,
  testDir: 'tests/pushed',
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : [['list']],
  use: { ...base.use, baseURL },
  webServer: {
    command: 'node --import tsx tests/pushed/serve.ts',
    // Both sites must answer: the pushed one, and the main build beside it.
    url: `http://127.0.0.1:${port + 2}/robots.txt`,
    env: { PUSHED_PORT: String(port) },
    reuseExistingServer: false,
    // The push alone takes about three and a half minutes (writes 1,500 ms apart), then a build.
    timeout: 900_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
