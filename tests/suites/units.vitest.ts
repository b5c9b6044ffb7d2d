import { defineConfig } from 'vitest/config'
import { base, BROWSER_FILES, SYNC_FILES } from './vitest-shared'

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
