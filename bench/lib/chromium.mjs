// What every browser benchmark shares: Debian's Chromium, started with the e2e tests' flags
// (WebGL 2 through SwiftShader, nothing fetched behind the page's back), and Lighthouse's mobile
// screen. tests/suites/e2e.playwright.ts keeps its own copy of the flags (a TypeScript config).

/** The Chromium binary: `CHROME_PATH`, else Debian's. */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'

/** Launch flags for headless Chromium here. */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
]

/** Lighthouse's mobile emulation: a Moto G Power-sized screen. */
export const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
}

/** Lighthouse's mobile CPU: 4× slower than this machine's. */
export const CPU_SLOWDOWN = 4

/**
 * Runs a benchmark's `main` and exits when it is done, with status 1 on an error: nothing (a
 * browser, a server) may keep the process, and the machine's shared lock, alive once measured.
 */
export function runBenchmark(main) {
  main()
    .catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
    .finally(() => process.exit())
}
