import { expect, test, type Page } from '@playwright/test'
import { drawnShare, RENDER_PATHS, slot, url3d, type Pixels } from './three-helpers'
import sharp from 'sharp'

// A 3D slot is never empty: whatever happens while the 3D arrives, the visitor sees the poster
// or the scene, never the slot's bare background. The home page's hero on a phone-sized window
// (no mobile emulation, pixel ratio 1), CPU slowed 4×: the visitor's first scroll asks for the 3D;
// at the moment the renderer's first frames arrive the page scrolls again and the window is
// resized. The scene is static there (software renderer, or reduced motion), so only the
// changes themselves can make the renderer draw again. Five runs per path and motion setting,
// on one page each, each catching the arrival at a slightly different moment.

const RUNS = 5
const PHONE = { width: 412, height: 823 }
const RESIZED = { width: 400, height: 760 }

type Hook = { frames: number; seq: number; sent: number }

/** What the visitor sees inside the stage's box, without scrolling it (a scroll would redraw). */
async function seen(page: Page): Promise<Pixels> {
  const box = await slot(page, 0).stage.boundingBox()
  const viewport = page.viewportSize()!
  expect(box, 'the hero stage has a box').not.toBeNull()
  const top = Math.max(0, box!.y)
  const clip = {
    x: Math.max(0, box!.x),
    y: top,
    width: Math.min(box!.width, viewport.width - Math.max(0, box!.x)),
    height: Math.min(box!.y + box!.height, viewport.height) - top,
  }
  expect(clip.height, 'the hero is on screen').toBeGreaterThan(100)
  const png = await page.screenshot({ clip, animations: 'allow' })
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

for (const path of RENDER_PATHS) {
  for (const motion of ['no-preference', 'reduce'] as const) {
    test(`the hero is never bare: a scroll and a resize as the 3D arrives, CPU 4× slower (${path} path, motion ${motion})`, async ({
      page,
    }) => {
      test.setTimeout(RUNS * 40_000)
      await page.emulateMedia({ reducedMotion: motion })
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      for (let run = 0; run < RUNS; run++) {
        await page.setViewportSize(PHONE)
        await page.goto(url3d('/en-us', path), { waitUntil: 'load' })
        const hero = slot(page, 0)
        await expect(hero.poster).toBeVisible()
        // The visitor's first scroll: it asks for the 3D.
        await page.mouse.move(200, 400)
        await page.mouse.wheel(0, 10)
        // The 3D arrives: its first frame has been drawn. Each run waits a few more animation
        // frames, so the changes below land at different points of the poster's hand-over.
        const arrived = () =>
          ((window as unknown as { __facet3d?: Hook }).__facet3d?.frames ?? 0) >= 1
        await page.waitForFunction(arrived, null, {
          polling: 'raf',
          timeout: 30_000,
        })
        await page.evaluate(
          (wait) =>
            new Promise<void>((resolve) => {
              const step = (left: number) =>
                left <= 0 ? resolve() : requestAnimationFrame(() => step(left - 1))
              step(wait)
            }),
          run % 3,
        )
        await page.evaluate(() => window.scrollBy(0, 10))
        await page.setViewportSize(run % 2 ? RESIZED : { ...PHONE, height: PHONE.height - 40 })
        // Settled: the renderer has drawn with the page's latest rectangles, and the hero is live.
        await page.waitForFunction(() => {
          const hook = (window as unknown as { __facet3d?: Hook }).__facet3d
          return !!hook && hook.seq >= hook.sent
        })
        await expect(hero.root).toHaveAttribute('data-3d-state', 'live', { timeout: 30_000 })
        await expect(hero.root.locator('[data-3d-stage] > div').first()).toHaveCSS('opacity', '0')
        // The poster is gone: the scene must be on screen, where the hero is now.
        const share = drawnShare(await seen(page))
        expect(share, `run ${run + 1}: scene pixels in the hero`).toBeGreaterThan(0.03)
      }
    })
  }
}
