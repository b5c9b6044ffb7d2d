import { expect, test, type Page } from '@playwright/test'
import { RENDER_PATHS, slot, url3d, waitLive } from './three-helpers'

test.use({ viewport: { width: 1000, height: 900 } })

/** Frames the shared canvas has rendered, from the debug hook (`?debug3d`). */
const renderedFrames = (page: Page) =>
  page.evaluate(() => (window as unknown as { __facet3d: { frames: number } }).__facet3d.frames)

/** Frames rendered over one second of wall time. */
async function framesOverASecond(page: Page): Promise<number> {
  const before = await renderedFrames(page)
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1000)))
  return (await renderedFrames(page)) - before
}

test('a page without 3D does not load the 3D chunk', async ({ page }) => {
  const scripts: Promise<string>[] = []
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.push(response.text())
  })
  const response = await page.goto('/en-us/no-such-page')
  expect(response?.status()).toBe(404)
  // The 404 is an ordinary page: its scripts load after the first paint, then it goes quiet.
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
  const bodies = await Promise.all(scripts)
  expect(bodies.length).toBeGreaterThan(0)
  expect(bodies.filter((body) => body.includes('WebGLRenderer'))).toEqual([])
  await expect(page.locator('canvas')).toHaveCount(0)
})

for (const path of RENDER_PATHS) {
  test(`the canvas renders while a moving scene is visible, and stops when it is not (${path} path)`, async ({
    page,
  }) => {
    await page.goto(url3d('/en-us/showcase', path, 'motion'))
    await waitLive(page, 0)
    // The hero floats: frames keep coming (more than one in a second; on a loaded machine a
    // software renderer may draw a single frame in some second, and a still scene draws none).
    await expect.poll(() => framesOverASecond(page), { timeout: 15_000 }).toBeGreaterThan(1)

    // Scrolled away (only the still viewer in view), nothing is rendered.
    await waitLive(page, 2)
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await expect(slot(page, 0).stage).not.toBeInViewport()
    await expect(slot(page, 1).stage).not.toBeInViewport()
    await framesOverASecond(page)
    expect(await framesOverASecond(page)).toBe(0)
  })

  test(`the canvas stops rendering while the tab is hidden (${path} path)`, async ({ page }) => {
    await page.goto(url3d('/en-us/showcase', path, 'motion'))
    await waitLive(page, 0)
    await expect.poll(() => framesOverASecond(page), { timeout: 15_000 }).toBeGreaterThan(1)
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    await framesOverASecond(page)
    expect(await framesOverASecond(page)).toBe(0)
  })

  test(`on a software renderer the scene is a still frame that still answers the keyboard (${path} path)`, async ({
    page,
  }) => {
    await page.goto(url3d('/en-us/showcase', path))
    await waitLive(page, 0)
    const { tier, antialias } = await page.evaluate(() => {
      const hook = (window as unknown as { __facet3d: { tier: string; antialias: boolean } })
        .__facet3d
      return { tier: hook.tier, antialias: hook.antialias }
    })
    expect(tier).toBe('low')
    // In a worker the tier is timed before the canvas's context is made, so a software renderer's
    // context does not multisample; the main-thread path times its one context, made before.
    expect(antialias).toBe(path === 'main')
    // Still: a whole second without a frame, once the page's other slots have arrived (each
    // arrival draws a frame; on a loaded machine the showcase's last one can come seconds
    // after the first). A scene in motion would never get there.
    await expect.poll(() => framesOverASecond(page), { timeout: 15_000 }).toBe(0)
    await waitLive(page, 2)
    const before = await renderedFrames(page)
    await slot(page, 2).root.locator('[data-3d-view="turnLeft"]').focus()
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => renderedFrames(page)).toBeGreaterThan(before)
  })
}

/** The renderer's pixel-ratio figures, from the debug hook. */
const ratios = (page: Page) =>
  page.evaluate(() => {
    const { dpr, deviceDpr, ceiling } = (
      window as unknown as { __facet3d: { dpr: number; deviceDpr: number; ceiling: number } }
    ).__facet3d
    return { dpr, deviceDpr, ceiling }
  })

for (const path of RENDER_PATHS) {
  test(`adaptive resolution: frames slower than 45 a second lower the pixel ratio, never below 0.5 (${path} path)`, async ({
    page,
  }) => {
    // A software renderer plays motion at 20 frames a second at most (?debug3d=motion).
    await page.goto(url3d('/en-us/showcase', path, 'motion'))
    await waitLive(page, 0)
    expect(await ratios(page)).toMatchObject({ ceiling: 1 })
    await expect.poll(async () => (await ratios(page)).dpr, { timeout: 20_000 }).toBeLessThan(1)
    await expect.poll(async () => (await ratios(page)).dpr, { timeout: 20_000 }).toBe(0.5)
    await page.waitForTimeout(1500)
    expect((await ratios(page)).dpr).toBe(0.5)
  })

  test(`a change of the display's pixel ratio reaches the renderer (${path} path)`, async ({
    page,
  }) => {
    await page.goto(url3d('/en-us/showcase', path))
    await waitLive(page, 0)
    expect(await ratios(page)).toEqual({ dpr: 1, deviceDpr: 1, ceiling: 1 })
    // The window moves to a denser screen: same size, twice the pixels.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 1000,
      height: 900,
      deviceScaleFactor: 2,
      mobile: false,
    })
    expect(await page.evaluate(() => window.devicePixelRatio)).toBe(2)
    // The hook's figures come with frames: the still viewer answers a key with one.
    await waitLive(page, 2)
    await slot(page, 2).root.locator('[data-3d-view="turnLeft"]').focus()
    await expect
      .poll(async () => {
        await page.keyboard.press('ArrowLeft')
        return (await ratios(page)).deviceDpr
      })
      .toBe(2)
    // A software renderer keeps drawing one pixel per CSS pixel, whatever the screen.
    expect(await ratios(page)).toEqual({ dpr: 1, deviceDpr: 2, ceiling: 1 })
  })
}
