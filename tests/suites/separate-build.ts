import path from 'node:path'
import { defineConfig } from '@playwright/test'
import base, { oneAtATime, reporter, root } from './e2e.playwright'

/**
 * A Playwright project for a site that runs on a build of its own beside the main one (foreign
 * content, a right-to-left language, a pushed repository): its tests, on its port, against the
 * server `serve` starts (a script run with tsx), the main config's settings otherwise.
 */
export function separateBuildConfig(options: {
  /** The tests' folder, from the repository's root. */
  testDir: string
  port: number
  /** The script that builds and serves the site, from the repository's root. */
  serve: string
  env: Record<string, string>
  /** What must answer before the tests start (default: the site's robots.txt). */
  readyURL?: string
  /** How long building and starting may take. */
  timeout?: number
}) {
  const baseURL = `http://127.0.0.1:${options.port}`
  return defineConfig({
    ...base,
    ...oneAtATime,
    testDir: path.join(root, options.testDir),
    reporter,
    use: { ...base.use, baseURL },
    webServer: {
      command: `node --import tsx ${options.serve}`,
      cwd: root,
      url: options.readyURL ?? `${baseURL}/robots.txt`,
      env: options.env,
      reuseExistingServer: false,
      timeout: options.timeout ?? 300_000,
      // Stopped by SIGTERM, not Playwright's default SIGKILL, so that the script stops its
      // servers and deletes what it made (tests/foreign/serve.ts: the repository's copy).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  })
}
