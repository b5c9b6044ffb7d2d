/** The Chromium binary: `CHROME_PATH`, else Debian's. */
export const CHROME_PATH: string
/** Launch flags for headless Chromium here. */
export const CHROME_ARGS: string[]
/** Lighthouse's mobile emulation: a Moto G Power-sized screen. */
export const MOBILE: {
  viewport: { width: number; height: number }
  deviceScaleFactor: number
  isMobile: boolean
}
/** Lighthouse's mobile CPU: 4× slower than this machine's. */
export const CPU_SLOWDOWN: number
/** Runs a benchmark's `main` and exits when it is done, with status 1 on an error. */
export function runBenchmark(main: () => Promise<void>): void
