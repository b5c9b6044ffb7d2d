import { defineConfig } from 'vitest/config'
import { base } from './vitest-shared'

/**
 * Several nodes on one build sharing one Redis (tests/nodes/): run by `npm test` after the
 * production build, since each test starts servers on it.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/nodes/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
