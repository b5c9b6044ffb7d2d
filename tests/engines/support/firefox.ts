import { existsSync } from 'node:fs'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { installRecorder, recorded, until, type Engine } from './engine'
import { startProxy } from './proxy'

/** Debian's firefox-esr, or FIREFOX_PATH; never a downloaded browser. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr'

export type FirefoxOptions = {
  /**
   * `headless`: no window and, on a machine without a GPU, no WebGL at all. `webgl`: a window on
   * `display` (Xvfb) with `webgl.force-enabled`, so Gecko draws with Mesa's llvmpipe.
   */
  mode: 'headless' | 'webgl'
  display?: string
  viewport?: { width: number; height: number }
  /** Firefox's preferences besides (`ui.prefersReducedMotion`, `webgl.disabled`). */
  prefs?: Record<string, unknown>
}

/**
 * Firefox driven over WebDriver BiDi by puppeteer-core. The recorder's listeners go in as a
 * preload script (`evaluateOnNewDocument`, BiDi's `script.addPreloadScript`), which runs in every
 * document before any of its own scripts; errors Firefox logs as uncaught (a refused `eval`
 * among them) also arrive as BiDi log entries (`pageerror`).
 */
export async function launchFirefox(site: string, options: FirefoxOptions): Promise<Engine> {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(
      `Firefox not found at ${FIREFOX_PATH}: apt-get install -y firefox-esr, or set FIREFOX_PATH.`,
    )
  const windowed = options.mode === 'webgl'
  if (windowed && !options.display) throw new Error('Firefox with WebGL needs an X display.')
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: !windowed,
    env: { ...process.env, ...(windowed ? { DISPLAY: options.display } : {}) },
    extraPrefsFirefox: {
      ...(windowed ? { 'webgl.force-enabled': true } : {}),
      ...options.prefs,
    },
    defaultViewport: options.viewport ?? { width: 1000, height: 900 },
  })
  const proxy = await startProxy(site)
  const page: Page = await browser.newPage()
  await page.evaluateOnNewDocument(installRecorder)
  let logged: string[] = []
  page.on('pageerror', (error) => logged.push(`logged as uncaught: ${(error as Error).message}`))

  return {
    name: `firefox (${windowed ? 'window, WebGL' : 'headless'})`,
    origin: proxy.origin,
    bytes: proxy.bytes,
    statuses: proxy.statuses,
    replacements: proxy.replacements,
    inFlight: proxy.inFlight,
    async goto(path) {
      logged = []
      proxy.reset()
      const target = `${proxy.origin}${path}`
      await page.goto(target, { waitUntil: 'load' })
      // Over WebDriver BiDi, puppeteer's goto has (rarely) come back before the new document had
      // even been asked for (the proxy had no answer for it yet): wait for that document, loaded.
      await page.waitForFunction(
        (href: string) => location.href === href && document.readyState === 'complete',
        { timeout: 30_000 },
        target,
      )
      await until(`the site's answer to ${path}`, () => proxy.statuses.has(path))
    },
    evaluate: (fn, ...args) => page.evaluate(fn as never, ...(args as unknown as never[])),
    async run(script) {
      await page.evaluate(`(() => {${script}})()`)
    },
    press: (key) => page.keyboard.press(key),
    async type(selector, text) {
      await page.click(selector)
      await page.keyboard.type(text)
    },
    click: (selector) => page.click(selector),
    async screenshot(selector) {
      const element = await page.$(selector)
      if (!element) throw new Error(`No element ${selector} to take a picture of`)
      return Buffer.from(await element.screenshot({ type: 'png' }))
    },
    async problems() {
      return [...logged, ...(await page.evaluate(recorded))]
    },
    async close() {
      await browser.close()
      await proxy.close()
    },
  }
}
