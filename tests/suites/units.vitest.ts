import path from 'node:path'
import { defineConfig } from 'vitest/config'

/** The repository's root: every path in the suites' configs is relative to it. */
const root = path.resolve(__dirname, '../..')

/** The files of the sync stage (./sync.vitest.ts), which the units stage leaves to it. */
export const SYNC_FILES = [
  'tests/conformance/prismic-sync.test.ts',
  'tests/conformance/prismic-write-apis.test.ts',
]

/** The unit and conformance files that drive a browser: `npm run test:quick` leaves them out. */
export const BROWSER_FILES = ['tests/conformance/emailjs-browser.test.ts']

/**
 * What every Vitest suite in this folder shares (the map: ./index.mjs): the root, the aliases,
 * the reporters. Each suite runs its files one at a time unless it says otherwise.
 */
export const base = defineConfig({
  root,
  resolve: {
    alias: {
      '@': path.join(root, 'src'),
      '@services': path.join(root, 'services'),
    },
  },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    maxWorkers: 1,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
})

/**
 * Units and conformance (tests/unit/, tests/conformance/), but for the push and pull conformance
 * files, which the sync stage runs beside the other stages. Two files at a time, one per core:
 * each file makes its own servers, ports and folders.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/conformance/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      ...SYNC_FILES,
      ...(process.env.FACET_TEST_QUICK ? BROWSER_FILES : []),
    ],
    maxWorkers: 2,
  },
})
