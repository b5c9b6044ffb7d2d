import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * Slice Machine (port 9999, the port the simulator's `frame-ancestors` allows) on a copy of the
 * models whose simulator URL is the production site of the main suite (E2E_PORT), started by
 * scripts/slices/slicemachine-copy.mjs so that nothing it writes lands in the working tree.
 */
const port = Number(process.env.E2E_PORT || 3217)
const site = `http://127.0.0.1:${port}`
const sliceMachine = 'http://localhost:9999'
const siteServer = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer

export default defineConfig({
  ...base,
  testDir: 'tests/slicemachine',
  use: { ...base.use, baseURL: sliceMachine },
  webServer: [
    siteServer!,
    {
      command: `node scripts/slices/slicemachine-copy.mjs --simulator ${site}/slice-simulator`,
      url: `${sliceMachine}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
})
