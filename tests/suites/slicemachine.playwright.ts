import path from 'node:path'
import { defineConfig } from '@playwright/test'
import base, { oneAtATime, root } from './e2e.playwright'

/**
 * Slice Machine (port 9999, the port the simulator's `frame-ancestors` allows) on a copy of the
 * models whose simulator URL is the site's development server, started by
 * scripts/slices/slicemachine-copy.mjs so that nothing it writes lands in the working tree.
 *
 * The development server, not the production build: in a production bundle the simulator's
 * receiver (@prismicio/simulator's ChannelReceiver) answers only Prismic's own origins
 * (`https://*.prismic.io` and Prismic's staging hosts), so a production site renders in Prismic's
 * page builder but not in a local Slice Machine. `next dev` writes to `.next/dev`, beside a
 * production build.
 */
const port = Number(process.env.SLICEMACHINE_SITE_PORT || 3247)
const site = `http://127.0.0.1:${port}`
const sliceMachine = 'http://localhost:9999'

export default defineConfig({
  ...base,
  ...oneAtATime,
  testDir: path.join(root, 'tests/slicemachine'),
  use: { ...base.use, baseURL: sliceMachine },
  webServer: [
    {
      command: `node node_modules/next/dist/bin/next dev --port ${port} --hostname 127.0.0.1`,
      cwd: root,
      // The simulator's route, compiled on this first request.
      url: `${site}/slice-simulator`,
      env: { NEXT_TELEMETRY_DISABLED: '1', OUTBOX_DIR: '.data/e2e-outbox' },
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `node scripts/slices/slicemachine-copy.mjs --simulator ${site}/slice-simulator`,
      cwd: root,
      url: `${sliceMachine}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
})
