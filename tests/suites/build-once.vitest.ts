import { defineConfig } from 'vitest/config'
import { base } from './vitest-shared'

/** `npm run build` then `npm start` on a copy of the repository (tests/build-once/). */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/build-once/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
})
