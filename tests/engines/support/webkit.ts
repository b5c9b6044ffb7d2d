import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Builder, Capabilities, Key, type WebDriver } from 'selenium-webdriver'
import { freePort } from '../../conformance/helpers'
import { installRecorder, recorded, until, type Engine } from './engine'
import { startProxy } from './proxy'

/** WebKitGTK's MiniBrowser (Debian's libwebkit2gtk-4.1-0, which webkit2gtk-driver pulls in). */
export function miniBrowserPath(): string {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH
  for (const arch of readdirSync('/usr/lib'))
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0']) {
      const candidate = `/usr/lib/${arch}/${api}/MiniBrowser`
      if (existsSync(candidate)) return candidate
    }
  throw new Error(
    "WebKitGTK's MiniBrowser not found: apt-get install -y webkit2gtk-driver, or set MINIBROWSER_PATH.",
  )
}

/**
 * A GTK configuration folder whose settings turn animations off, which WebKitGTK answers as
 * `prefers-reduced-motion: reduce` (as a desktop's "reduce animation" setting does).
 */
function reducedMotionConfig(): string {
  const home = mkdtempSync(path.join(tmpdir(), 'facet-gtk-'))
  mkdirSync(path.join(home, 'gtk-3.0'))
  writeFileSync(
    path.join(home, 'gtk-3.0', 'settings.ini'),
    '[Settings]\ngtk-enable-animations=false\n',
  )
  return home
}

const KEYS = {
  Tab: Key.TAB,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  ArrowRight: Key.ARROW_RIGHT,
} as const

/**
 * WebKit (WebKitGTK's MiniBrowser on an X display) driven over classic WebDriver by
 * selenium-webdriver through Debian's WebKitWebDriver.
 *
 * Classic WebDriver has no preload script: a script of ours sent through it runs only once `get`
 * returns, after the page's load, too late for what goes wrong while the page starts. (MiniBrowser
 * can write console messages to its output, but not for the views it opens under automation.)
 * So the recorder comes with the page: the proxy in front of the site (proxy.ts) puts its
 * listeners first in the `<head>`, allowed by their hash in the page's own policy, and they run
 * before any of the page's scripts, as a preload script would.
 */
export async function launchWebKit(
  site: string,
  options: {
    display: string
    userAgent?: string
    /** WebKitSettings as MiniBrowser takes them (`--enable-webgl=false`). */
    settings?: string[]
    /** The visitor asked for reduced motion: GTK's `gtk-enable-animations`, which WebKitGTK reads. */
    reducedMotion?: boolean
  },
): Promise<Engine> {
  const proxy = await startProxy(site, { inject: `(${installRecorder.toString()})()` })
  const driverPort = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: options.display }
  if (options.reducedMotion) env.XDG_CONFIG_HOME = reducedMotionConfig()
  const driverProcess: ChildProcess = spawn('WebKitWebDriver', [`--port=${driverPort}`], {
    env,
    stdio: 'ignore',
    detached: true,
  })
  await new Promise<void>((resolve, reject) => {
    driverProcess.once('error', (error) =>
      reject(
        new Error(
          `WebKitWebDriver did not start (apt-get install -y webkit2gtk-driver): ${error.message}`,
        ),
      ),
    )
    driverProcess.once('spawn', () => resolve())
  })
  const stop = async () => {
    try {
      process.kill(-driverProcess.pid!, 'SIGTERM')
    } catch {
      /* already stopped */
    }
    await proxy.close()
  }
  const server = `http://127.0.0.1:${driverPort}`
  let driver: WebDriver
  try {
    await until(`WebKitWebDriver answering on ${server}`, () =>
      fetch(`${server}/status`).then(
        (response) => response.ok,
        () => false,
      ),
    )
    driver = await new Builder()
      .usingServer(server)
      .withCapabilities(
        new Capabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': {
            binary: miniBrowserPath(),
            // MiniBrowser takes WebKit's settings as options: `--user-agent` is one.
            args: [
              '--automation',
              ...(options.userAgent ? [`--user-agent=${options.userAgent}`] : []),
              ...(options.settings ?? []),
            ],
          },
        }),
      )
      .build()
    await driver.manage().setTimeouts({ script: 60_000, pageLoad: 60_000 })
    await driver.manage().window().setRect({ width: 1000, height: 900 })
  } catch (error) {
    await stop()
    throw error
  }

  const evaluate: Engine['evaluate'] = async (fn, ...args) => {
    const result = (await driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       const args = Array.prototype.slice.call(arguments, 0, -1);
       Promise.resolve()
         .then(() => (${fn.toString()})(...args))
         .then((value) => done({ value }), (error) => done({ error: String((error && error.stack) || error) }));`,
      ...args,
    )) as { value?: unknown; error?: string }
    if (result.error !== undefined) throw new Error(`In the page: ${result.error}`)
    return result.value as never
  }

  /**
   * Forms are filled and sent from the keyboard, as a keyboard user does: focus on the element
   * (brought to the middle of the view), then keys. WebKitWebDriver's pointer clicks on form
   * controls were refused ("element not interactable") or lost.
   */
  const focus = async (selector: string) => {
    const focused = await evaluate((s: string) => {
      const element = document.querySelector<HTMLElement>(s)
      element?.scrollIntoView({ block: 'center' })
      element?.focus()
      return !!element && document.activeElement === element
    }, selector)
    if (!focused) throw new Error(`webkit: cannot focus ${selector}`)
  }

  return {
    name: 'webkit (MiniBrowser)',
    origin: proxy.origin,
    bytes: proxy.bytes,
    statuses: proxy.statuses,
    replacements: proxy.replacements,
    inFlight: proxy.inFlight,
    async goto(path) {
      proxy.reset()
      await driver.get(`${proxy.origin}${path}`)
      // The proxy notes a status once the site's answer has ended, which may come after WebDriver
      // says the page has loaded (seen once: /en-us/journal had no status yet), as in firefox.ts.
      await until(`the site's answer to ${path}`, () => proxy.statuses.has(path))
      const installed = await evaluate(() => '__facetProblems' in window)
      if (!installed) throw new Error(`${path}: the recorder did not come with the page`)
    },
    evaluate,
    async run(script) {
      await driver.executeScript(script)
    },
    press: (key) => driver.actions().sendKeys(KEYS[key]).perform(),
    async type(selector, text) {
      await focus(selector)
      await driver.actions().sendKeys(text).perform()
    },
    async click(selector) {
      await focus(selector)
      await driver.actions().sendKeys(Key.ENTER).perform()
    },
    async screenshot(selector) {
      const element = await driver.findElement({ css: selector })
      return Buffer.from(await element.takeScreenshot(), 'base64')
    },
    problems: () => evaluate(recorded),
    async close() {
      try {
        await driver.quit()
      } finally {
        await stop()
      }
    },
  }
}
