import path from 'node:path'
import { defineConfig } from 'vitest/config'

/** The repository's root: every path in the suites' configs is relative to it. */
const root = path.resolve(__dirname, '../..')

/**
 * Units and conformance (tests/unit/, tests/conformance/), and the base of every other Vitest
 * suite in this folder (the map: ./index.mjs).
 */
export default defineConfig({
  root,
  resolve: {
    alias: {
      '@': path.join(root, 'src'),
      '@services': path.join(root, 'services'),
    },
  },
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
})
