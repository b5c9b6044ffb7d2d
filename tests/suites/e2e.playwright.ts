import { existsSync } from 'node:fs'
import path from 'node:path'
import { defineConfig } from '@playwright/test'

/** The repository's root: Playwright resolves paths from this file's folder, so each is absolute. */
export const root = path.resolve(__dirname, '../..')

/** The reporters: the list, and the JSON report `npm test` counts (PLAYWRIGHT_JSON, from the root). */
export const reporter: NonNullable<Parameters<typeof defineConfig>[0]['reporter']> = process.env
  .PLAYWRIGHT_JSON
  ? [['list'], ['json', { outputFile: path.resolve(root, process.env.PLAYWRIGHT_JSON) }]]
  : [['list']]

/** Chromium from CHROME_PATH, else Debian's /usr/bin/chromium; never a downloaded browser. */
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium'
if (!existsSync(chromiumPath)) {
  throw new Error(
    `Chromium not found at ${chromiumPath}. Install Debian's chromium (apt-get install -y chromium) or set CHROME_PATH.`,
  )
}

/** The flags that make headless Chromium render WebGL 2 through SwiftShader here. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
]

/**
 * The settings of a suite that runs beside other stages (tests/suites/index.mjs): one test at a
 * time, in Chromium, without the end-to-end suite's two lanes.
 */
export const oneAtATime = {
  fullyParallel: false,
  workers: 1,
  projects: [{ name: 'chromium', use: { browserName: 'chromium' as const } }],
}

/**
 * The specs of the second lane, about half the suite's time: most 3D specs, the viewer's
 * accessibility and the AR one. Which specs go where only evens out the lanes (the first lane's
 * own were made shorter by `support/visitor.ts`), so three.spec and the shorter 3D specs run in
 * the first. three-never-empty
 * stays here, beside the lane without 3D, where it has run since it was written: beside the model
 * corpus (1202a9d) it once found the hero bare after a resize (see docs/testing.md).
 */
const SECOND_LANE = [
  /three-never-empty\.spec\.ts$/,
  /three-frugal\.spec\.ts$/,
  /three-models\.spec\.ts$/,
  /three-access\.spec\.ts$/,
  /three-story\.spec\.ts$/,
  /a11y-states\.spec\.ts$/,
  /ar\.spec\.ts$/,
]

const port = Number(process.env.E2E_PORT || 3217)
const baseURL = `http://127.0.0.1:${port}`

/** The end-to-end tests in Chromium (tests/e2e/), against the production build. */
export default defineConfig({
  testDir: path.join(root, 'tests/e2e'),
  outputDir: path.join(root, 'test-results'),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two tests at a time, one per core: one of each project below.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter,
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'off',
  },
  // Two lanes, each one test at a time, side by side: `chromium-3d` (SECOND_LANE) and `chromium`
  // (the rest). Every test that sends mail is in `chromium`: the mail API allows one request a
  // second per client address, as EmailJS does, and two sends at once from this machine would meet
  // that limit. The webhook's purge and its refusals are in one file (site.spec.ts), in order.
  // Page clocks, not the machine's, time what must be fast (the forms' time trap).
  projects: [
    {
      name: 'chromium',
      use: { browserName: 'chromium' },
      testIgnore: SECOND_LANE,
      workers: 1,
    },
    { name: 'chromium-3d', use: { browserName: 'chromium' }, testMatch: SECOND_LANE, workers: 1 },
  ],
  webServer: {
    // The production build: `npm test` builds first; a missing build is made here.
    command: `node scripts/start.mjs`,
    cwd: root,
    url: `${baseURL}/en-us`,
    env: {
      PORT: String(port),
      LISTEN_HOST: '127.0.0.1',
      SITE_URL: baseURL,
      OUTBOX_DIR: '.data/e2e-outbox',
      // The revalidate webhook's secret, which tests/e2e/site.spec.ts sends (right and wrong).
      PRISMIC_WEBHOOK_SECRET: process.env.E2E_WEBHOOK_SECRET ?? 'facet-e2e-webhook-secret',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
