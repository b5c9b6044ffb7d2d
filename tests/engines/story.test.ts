// The story told by scroll (/en-us/story, src/three/story) in Firefox (a window, WebGL in its
// render worker) and WebKit (WebGL on the main thread), as tests/e2e/three-story.spec.ts has it
// in Chromium: as the visitor scrolls from step to step the stage stays pinned and changes; a
// place reached from above and from below shows the same picture; each frame the renderer draws
// is for the scroll of that frame, or the one before; with the engine's reduced-motion setting
// each step is a still; without WebGL each step shows its still image. The recorder hears no
// error and no policy violation.
import sharp from 'sharp'
import { settledPicture } from '../fixtures/settle'
import { flingLags, lagFigures, scrollToPlace, shownStill } from '../fixtures/story'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { until, waitFor, type Engine } from './support/engine'
import { launchFirefox } from './support/firefox'
import { launchWebKit } from './support/webkit'

const STAGE = '.story-stage [data-3d-stage]'

/** How the visitor's engine is set: as most are, asking for reduced motion, or without WebGL. */
type Setting = 'default' | 'reduced motion' | 'no WebGL'

const ENGINES: [string, (site: string, setting: Setting) => Promise<Engine>][] = [
  [
    'Firefox ESR, in a window with WebGL (worker path)',
    (site, setting) =>
      launchFirefox(site, {
        mode: 'webgl',
        display: inject('display'),
        prefs: {
          ...(setting === 'reduced motion' ? { 'ui.prefersReducedMotion': 1 } : {}),
          ...(setting === 'no WebGL' ? { 'webgl.disabled': true } : {}),
        },
      }),
  ],
  [
    'WebKitGTK (main-thread path)',
    (site, setting) =>
      launchWebKit(site, {
        display: inject('display'),
        reducedMotion: setting === 'reduced motion',
        settings: setting === 'no WebGL' ? ['--enable-webgl=false'] : [],
      }),
  ],
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

/** The stage's pixels once they hold (`settledPicture`: a worker's frame lands late). */
function stage(engine: Engine): Promise<Buffer> {
  return settledPicture(
    async () =>
      sharp(await engine.screenshot(STAGE))
        .removeAlpha()
        .raw()
        .toBuffer(),
    (a, b) => a.equals(b),
  )
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

/** Opens the story and waits for its stage to go live, its poster gone. */
async function openLive(engine: Engine) {
  await engine.goto('/en-us/story?debug3d')
  await scrollTo(engine, 0)
  const state = await waitFor(
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
  )
  expect(state).toBe('live')
}

const stageTop = (engine: Engine) =>
  engine.evaluate(() =>
    Math.round(document.querySelector('.story-stage')!.getBoundingClientRect().top),
  )

const stepCount = (engine: Engine) =>
  engine.evaluate(() => document.querySelectorAll('[data-story-step]').length)

/** Takes the stage's picture until it differs from `from` (a frame lands late), for up to 10 s. */
async function changedFrom(engine: Engine, from: Buffer): Promise<Buffer> {
  const until = Date.now() + 10_000
  let picture = await stage(engine)
  while (changed(from, picture) <= 0.02 && Date.now() < until) picture = await stage(engine)
  return picture
}

/** An engine set as `setting`, launched for the tests of the block that calls this. */
function launched(
  launch: (site: string, setting: Setting) => Promise<Engine>,
  setting: Setting,
): () => Engine {
  let engine: Engine | undefined
  beforeAll(async () => {
    engine = await launch(inject('origin'), setting)
  })
  afterAll(async () => {
    await engine?.close()
  })
  return () => engine!
}

for (const [label, launch] of ENGINES)
  describe(`${label}: the story told by scroll`, () => {
    describe('as most visitors have their engine set', () => {
      const current = launched(launch, 'default')

      it('stays pinned and changes its stage between each pair of steps, shows one place the same from above and below, and draws each frame for its scroll', async () => {
        const engine = current()
        await openLive(engine)
        const steps = await stepCount(engine)
        const pictures: Buffer[] = []
        const tops: number[] = []
        for (let i = 0; i < steps; i++) {
          await scrollTo(engine, i)
          tops.push(await stageTop(engine))
          pictures.push(i === 0 ? await stage(engine) : await changedFrom(engine, pictures[i - 1]!))
        }
        expect(new Set(tops).size, `the stage's top at each step: ${tops.join(', ')}`).toBe(1)
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

        await scrollTo(engine, 0)
        const lags = await engine.evaluate(flingLags)
        const { median, most } = lagFigures(lags)
        console.log(
          `${engine.name}: the renderer's lag over the ${lags.length} frames it drew while the page scrolled, in frames: median ${median}, most ${most}`,
        )
        expect(lags.length).toBeGreaterThan(3)
        expect(median).toBeLessThanOrEqual(1)
        expect(await engine.problems()).toEqual([])
      })
    })

    describe('with reduced motion', () => {
      const current = launched(launch, 'reduced motion')

      it('shows each step as a still, changed where one step’s half meets the next', async () => {
        const engine = current()
        expect(
          await engine.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches),
        ).toBe(true)
        await openLive(engine)
        await scrollTo(engine, 1)
        const step = await stage(engine)
        await scrollTo(engine, 1.3)
        expect(changed(step, await stage(engine)), 'within the step').toBeLessThan(0.001)
        await scrollTo(engine, 1.7)
        const after = await changedFrom(engine, step)
        expect(changed(step, after), 'past the boundary').toBeGreaterThan(0.02)
        await scrollTo(engine, 2)
        expect(changed(after, await stage(engine)), 'within the next step').toBeLessThan(0.001)
        expect(await engine.problems()).toEqual([])
      })
    })

    describe('without WebGL', () => {
      const current = launched(launch, 'no WebGL')

      it('shows each step’s still image beside its text', async () => {
        const engine = current()
        await engine.goto('/en-us/story')
        const state = await waitFor(
          engine,
          'the story to say it has no 3D here',
          (selector) => {
            const state = document
              .querySelector(selector)
              ?.closest('[data-3d-state]')
              ?.getAttribute('data-3d-state')
            return state === 'unsupported' || state === 'live' || state === 'error'
              ? state
              : undefined
          },
          [STAGE],
        )
        expect(state).toBe('unsupported')
        const steps = await stepCount(engine)
        for (let i = 0; i < steps; i++) {
          // No renderer to wait for: the page's scroll is all there is.
          await engine.evaluate(scrollToPlace, i)
          // The page swaps the still in its next frame; the image then loads.
          await until(`step ${i + 1}'s own still, loaded`, async () => {
            const shown = await engine.evaluate(shownStill)
            return shown.index === i && shown.loaded
          })
        }
        expect(await engine.problems()).toEqual([])
      })
    })
  })
