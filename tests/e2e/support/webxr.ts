import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { BrowserContext, Page } from '@playwright/test'

// A phone with WebXR's `immersive-ar` and hit-testing, emulated in Chromium: IWER (Meta's WebXR
// emulation runtime) in place of `navigator.xr`, with its Synthetic Environment Module giving
// hit-testing a scanned room to find surfaces in (an office, from the module's own captures).
// Installed before the page's scripts run; the device is then driven from the test: where it
// looks, and its trigger, which makes a `select` as a tap on the screen does.

// Resolved from the project's root, as the suites run there.
const resolve = createRequire(path.join(process.cwd(), 'package.json')).resolve
const ENVIRONMENT = readFileSync(resolve('@iwer/sem/captures/office_small.json'), 'utf8')

type Emulated = {
  device: {
    quaternion: { set: (x: number, y: number, z: number, w: number) => void }
    position: { set: (x: number, y: number, z: number) => void }
    controllers: Record<string, { updateButtonValue: (id: string, value: number) => void }>
    activeSession?: unknown
  }
}

/** Makes every page of `context` a WebXR AR phone whose browser says `userAgent`. */
export async function emulateArPhone(context: BrowserContext, userAgent: string) {
  await context.addInitScript({ path: resolve('iwer/build/iwer.min.js') })
  await context.addInitScript({ path: resolve('@iwer/sem/build/iwer-sem.min.js') })
  await context.addInitScript(
    ({ environment, userAgent }) => {
      type Iwer = {
        XRDevice: new (config: object) => {
          installRuntime: (options: object) => void
          installSEM: (module: unknown) => void
          sem?: { loadEnvironment: (json: object) => void }
        }
        metaQuest3: object
      }
      type Sem = {
        SyntheticEnvironmentModule: new () => { loadEnvironment: (json: object) => void }
      }
      const scope = window as unknown as { IWER: Iwer; IWER_SEM: Sem; __xr: unknown }
      const device = new scope.IWER.XRDevice({
        ...scope.IWER.metaQuest3,
        name: 'AR phone',
        userAgent,
      })
      // Chromium has a `navigator.xr` of its own (with no AR device behind it): replace it.
      device.installRuntime({ forceInstall: true })
      scope.__xr = { device }
      device.installSEM(scope.IWER_SEM.SyntheticEnvironmentModule)
      device.sem!.loadEnvironment(JSON.parse(environment))
    },
    { environment: ENVIRONMENT, userAgent },
  )
}

/**
 * Records every Content Security Policy violation of the pages of `context` (before their
 * scripts run), for `violations` to read.
 */
export async function recordViolations(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __violations: string[] }).__violations = seen
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
}

/** The violations recorded so far on `page` (see `recordViolations`). */
export const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)

/** Turns the device to look `degrees` below the horizon (90: straight down). */
export async function lookDown(page: Page, degrees: number) {
  await page.evaluate((degrees) => {
    const { device } = (window as unknown as { __xr: Emulated }).__xr
    const half = (-degrees * Math.PI) / 360
    device.quaternion.set(Math.sin(half), 0, 0, Math.cos(half))
  }, degrees)
}

/**
 * A tap on the room: the device's trigger pressed, and released once the session has seen the
 * press (its `selectstart`); resolves on its `selectend`, after the page's `select` handlers ran.
 */
export async function tapRoom(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { device } = (window as unknown as { __xr: Emulated }).__xr
        const session = device.activeSession as EventTarget
        const trigger = device.controllers.right!
        session.addEventListener('selectstart', () => trigger.updateButtonValue('trigger', 0), {
          once: true,
        })
        session.addEventListener('selectend', () => resolve(), { once: true })
        trigger.updateButtonValue('trigger', 1)
      }),
  )
}
