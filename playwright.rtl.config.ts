import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * The site built against the sample content with a right-to-left language added (`ar-ae`, by
 * tests/fixtures/rtl-content.ts), served by tests/foreign/serve.ts with FOREIGN_CONTENT=rtl: a
 * separate build in `.next-rtl`, beside the main one.
 */
const port = Number(process.env.RTL_PORT || 3247)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  ...base,
  testDir: 'tests/rtl',
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : [['list']],
  use: { ...base.use, baseURL },
  webServer: {
    command: 'node --import tsx tests/foreign/serve.ts',
    url: `${baseURL}/robots.txt`,
    env: { FOREIGN_CONTENT: 'rtl', FOREIGN_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
