import { defineConfig } from 'vitest/config'
import { base } from './vitest-shared'

/**
 * Varnish in front of the production server on the build (tests/cdn/): run by `npm test` after
 * the production build, since it starts the server on it.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/cdn/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
