import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

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

const port = Number(process.env.E2E_PORT || 3217)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : [['list']],
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'off',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // The production build: `npm test` builds first; a missing build is made here.
    command: `node scripts/start.mjs`,
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
