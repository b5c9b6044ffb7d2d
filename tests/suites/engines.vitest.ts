import { defineConfig } from 'vitest/config'
import { base } from './vitest-shared'

/**
 * The site in Firefox and WebKit (tests/engines/): Debian's firefox-esr over WebDriver BiDi
 * (puppeteer-core), WebKitGTK's MiniBrowser over classic WebDriver (WebKitWebDriver,
 * selenium-webdriver), against the production build that `npm test` made for the Chromium
 * end-to-end tests. One server and one X display serve every file (global-setup.ts); the files
 * run one after another, each with its own browser.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/engines/**/*.test.ts'],
    globalSetup: ['tests/engines/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    // The server may build first when no build matches (a local run); `npm test` has built.
    hookTimeout: 300_000,
  },
})
