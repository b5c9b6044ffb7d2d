// The story told by scroll (/en-us/story, src/three/story) in Firefox (a window, WebGL in its
// render worker) and WebKit (WebGL on the main thread): as the visitor scrolls from step to
// step, the stage changes; a place reached from above and from below shows the same picture; and
// the recorder hears no error and no policy violation. Chromium's side, with reduced motion, no
// WebGL and the renderer's lag, is tests/e2e/three-story.spec.ts.
import sharp from 'sharp'
import { scrollToPlace } from '../fixtures/story'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { waitFor, type Engine } from './support/engine'
import { launchFirefox } from './support/firefox'
import { launchWebKit } from './support/webkit'

const STAGE = '.story-stage [data-3d-stage]'

const ENGINES: [string, (site: string) => Promise<Engine>][] = [
  [
    'Firefox ESR, in a window with WebGL (worker path)',
    (site) => launchFirefox(site, { mode: 'webgl', display: inject('display') }),
  ],
  ['WebKitGTK (main-thread path)', (site) => launchWebKit(site, { display: inject('display') })],
]

/**
 * Scrolls to a place in the story (1: the second step's middle on the window's middle) and waits
 * for the renderer to have drawn with it (`?debug3d`'s counters: its last drawn frame used the
 * page's last measure), then for two more of the page's frames.
 */
async function scrollTo(engine: Engine, place: number) {
  await engine.evaluate(scrollToPlace, place)
  await engine.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  )
  await waitFor(
    engine,
    'the renderer to draw the scroll',
    () => {
      const hook = (window as unknown as { __facet3d?: { seq: number; sent: number } }).__facet3d
      return !!hook && hook.seq >= hook.sent
    },
    [],
  )
}

/** The stage's pixels, taken again until two pictures in a row agree (a worker's frame lands late). */
async function stage(engine: Engine): Promise<Buffer> {
  let last = await sharp(await engine.screenshot(STAGE))
    .removeAlpha()
    .raw()
    .toBuffer()
  for (let i = 0; i < 10; i++) {
    const next = await sharp(await engine.screenshot(STAGE))
      .removeAlpha()
      .raw()
      .toBuffer()
    if (next.equals(last)) return next
    last = next
  }
  return last
}

/** The share of pixels that differ between two pictures of the stage. */
function changed(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) return 1
  let differ = 0
  for (let i = 0; i < a.length; i += 3)
    if (
      Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) >
      30
    )
      differ++
  return differ / (a.length / 3)
}

for (const [label, launch] of ENGINES)
  describe(`${label}: the story told by scroll`, () => {
    let engine: Engine
    beforeAll(async () => {
      engine = await launch(inject('origin'))
    })
    afterAll(async () => {
      await engine?.close()
    })

    it('changes its stage between each pair of steps, and shows one place the same from above and below', async () => {
      await engine.goto('/en-us/story?debug3d')
      await scrollTo(engine, 0)
      await waitFor(
        engine,
        'the story to go live',
        (selector) => {
          const slot = document.querySelector(selector)?.closest('[data-3d-state]')
          const poster = document.querySelector(`${selector} > div`)
          const state = slot?.getAttribute('data-3d-state')
          if (state === 'error' || state === 'unsupported') return state
          return state === 'live' && poster && getComputedStyle(poster).opacity === '0'
            ? state
            : undefined
        },
        [STAGE],
        60_000,
      ).then((state) => expect(state).toBe('live'))
      const steps = await engine.evaluate(
        () => document.querySelectorAll('[data-story-step]').length,
      )
      const pictures: Buffer[] = []
      for (let i = 0; i < steps; i++) {
        await scrollTo(engine, i)
        pictures.push(await stage(engine))
      }
      const changes = pictures.slice(1).map((picture, i) => changed(pictures[i]!, picture))
      console.log(`${engine.name}: the stage changed between steps by ${changes.join(', ')}`)
      for (const [i, change] of changes.entries())
        expect(change, `from step ${i + 1} to step ${i + 2}`).toBeGreaterThan(0.02)

      await scrollTo(engine, 1.5)
      const above = await stage(engine)
      await scrollTo(engine, steps - 1)
      await scrollTo(engine, 1.5)
      const below = await stage(engine)
      const difference = changed(above, below)
      console.log(`${engine.name}: one place from above and below differs by ${difference}`)
      expect(difference).toBeLessThan(0.001)
      expect(await engine.problems()).toEqual([])
    })
  })
