import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * The site built against a content folder no test has seen (tests/foreign/serve.ts): a separate
 * build in `.next-foreign`, served beside the main one.
 */
const port = Number(process.env.FOREIGN_PORT || 3227)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  ...base,
  testDir: 'tests/foreign',
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : [['list']],
  use: { ...base.use, baseURL },
  webServer: {
    command: 'node --import tsx tests/foreign/serve.ts',
    url: `${baseURL}/robots.txt`,
    env: { FOREIGN_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
