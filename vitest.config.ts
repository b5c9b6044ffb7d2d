import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname, 'src'),
      '@services': path.resolve(__dirname, 'services'),
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
