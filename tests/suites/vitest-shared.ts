import path from 'node:path'
import { defineConfig } from 'vitest/config'

// What the Vitest suites of this folder share (the map: ./index.mjs). Not a suite itself: its
// name is not `<stage>.vitest.ts`. (A config module with named exports beside its default one
// makes Vitest's config bundler warn, so the shared parts live here.)

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
      '@rules': path.join(root, 'rules'),
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
