// A story told by scroll (src/slices/ScrollStory, src/three/story): the sample at /en-us/story,
// as a visitor scrolls it, on both render paths. Its stage stays pinned; between each pair of
// steps the picture changes; a place reached from above and from below shows the same picture;
// with reduced motion each step is a still; without WebGL each step shows its still image.
import { readFileSync } from 'node:fs'
import * as prismic from '@prismicio/client'
import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'
import { settledPicture } from '../fixtures/settle'
import { flingLags, lagFigures, scrollToPlace } from '../fixtures/story'
import { parseOrbit } from '../../rules/hotspots'
import { storyLimits, storyStepProblems } from '../../rules/story'
import {
  changedShare,
  frames,
  RENDER_PATHS,
  slot,
  url3d,
  waitLive,
  type Pixels,
} from './three-helpers'

const STORY = '/en-us/story'
const steps = (
  JSON.parse(readFileSync('content/documents/page/story/en-us.json', 'utf8')) as {
    data: { slices: { primary: { steps: { heading: string; still: { media: string } }[] } }[] }
  }
).data.slices[0]!.primary.steps

/**
 * Scrolls the page, at once, to a place in the story: 1 puts the second step's middle on the
 * window's middle, 1.5 the point halfway between the second's and the third's.
 */
async function scrollTo(page: Page, place: number) {
  await page.evaluate(scrollToPlace, place)
  await frames(page)
}

/**
 * What the visitor sees of the pinned stage once the renderer has drawn with the page's last
 * scroll: the window's pixels in its box, whole pixels (the stage sits on a fraction of a pixel,
 * and a picture of the element itself would be a pixel taller at one place than another). A
 * worker's frame reaches the screen in a compositor frame of its own, after the page hears it was
 * drawn: the picture is taken again until it holds (`settledPicture`).
 */
async function stagePicture(page: Page): Promise<Pixels> {
  await frames(page)
  const box = (await page.locator('.story-stage [data-3d-stage]').boundingBox())!
  const clip = {
    x: Math.ceil(box.x),
    y: Math.ceil(box.y),
    width: Math.floor(box.width) - 2,
    height: Math.floor(box.height) - 2,
  }
  const shot = async () => {
    const png = await page.screenshot({ clip })
    const { data, info } = await sharp(png)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  }
  return settledPicture(shot, (a, b) => a.data.equals(b.data))
}

const stageTop = (page: Page) =>
  page.locator('.story-stage').evaluate((stage) => Math.round(stage.getBoundingClientRect().top))

for (const path of RENDER_PATHS)
  test.describe(`the story, on the ${path} path`, () => {
    test('its stage stays pinned, changes between each pair of steps, and shows a place the same from above and below', async ({
      page,
    }) => {
      test.setTimeout(90_000)
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(url3d(STORY, path))
      await waitLive(page, 0)

      const pictures: Pixels[] = []
      const tops: number[] = []
      const changes: number[] = []
      for (let i = 0; i < steps.length; i++) {
        await scrollTo(page, i)
        await expect(page.locator('[data-story]')).toHaveAttribute('data-story-at', String(i))
        tops.push(await stageTop(page))
        if (i === 0) {
          pictures.push(await stagePicture(page))
          continue
        }
        // The step's picture once its frame has reached the screen (a worker's lands a compositor
        // frame or more after the page hears it was drawn): it differs from the step before's.
        let picture = pictures[i - 1]!
        await expect
          .poll(async () => changedShare(pictures[i - 1]!, (picture = await stagePicture(page))), {
            message: `from step ${i} to step ${i + 1}`,
            timeout: 10_000,
          })
          .toBeGreaterThan(0.02)
        changes.push(changedShare(pictures[i - 1]!, picture))
        pictures.push(picture)
      }
      // Pinned: the stage is where it was at every step, while the page scrolled by steps.
      expect(new Set(tops).size, `the stage's top at each step: ${tops.join(', ')}`).toBe(1)
      console.log(
        `story (${path}): share of the stage that changed between steps: ${changes.map((c) => c.toFixed(3)).join(', ')}`,
      )

      // Halfway from the second step to the third (the model half apart), from above, then from
      // below after the last step.
      await scrollTo(page, 1.5)
      const above = await stagePicture(page)
      await scrollTo(page, steps.length - 1)
      await scrollTo(page, 1.5)
      // The place's picture, once the renderer's frame for it has reached the screen (a worker's
      // frame lands a compositor frame or more after the page hears it was drawn: under load, more
      // than two pictures in a row apart).
      let difference = 1
      let below = above
      try {
        await expect
          .poll(
            async () => (difference = changedShare(above, (below = await stagePicture(page)))),
            { message: 'one place from above and from below', timeout: 10_000 },
          )
          .toBeLessThan(0.001)
      } catch (error) {
        // Both pictures beside the test's results, to see what differs (a finish, the clip's pose).
        for (const [name, picture] of [
          ['from-above', above],
          ['from-below', below],
        ] as const)
          await sharp(picture.data, {
            raw: { width: picture.width, height: picture.height, channels: 3 },
          }).toFile(test.info().outputPath(`${name}.png`))
        throw error
      }
      console.log(`story (${path}): one place from above and below differs by ${difference}`)
      expect(changedShare(above, pictures[1]!)).toBeGreaterThan(0.02)
    })
  })

for (const path of RENDER_PATHS)
  test(`each frame the renderer draws is for the scroll of that frame, on the ${path} path`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(url3d(STORY, path))
    await waitLive(page, 0)
    await scrollTo(page, 0)
    const lags = await page.evaluate(flingLags)
    const { median, most } = lagFigures(lags)
    console.log(
      `story (${path}): the renderer's lag over the ${lags.length} frames it drew while the page scrolled, in frames: median ${median}, most ${most}; each: ${lags.join(' ')}`,
    )
    expect(lags.length).toBeGreaterThan(3)
    expect(median).toBeLessThanOrEqual(1)
  })

test('with reduced motion, each step is a still, changed where one step’s half meets the next', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(url3d(STORY, 'worker'))
  await waitLive(page, 0)
  await scrollTo(page, 1)
  const step = await stagePicture(page)
  await scrollTo(page, 1.3)
  const before = await stagePicture(page)
  await scrollTo(page, 1.7)
  // Past the boundary: the next step's still, once its frame has reached the screen.
  let after = step
  await expect
    .poll(async () => changedShare(step, (after = await stagePicture(page))), { timeout: 10_000 })
    .toBeGreaterThan(0.02)
  await scrollTo(page, 2)
  const next = await stagePicture(page)
  expect(changedShare(step, before)).toBeLessThan(0.001)
  expect(changedShare(after, next)).toBeLessThan(0.001)
})

test('without WebGL, each step shows its still beside its text', async ({ page }) => {
  await page.addInitScript(() => {
    // A browser with no WebGL at all.
    Reflect.deleteProperty(window, 'WebGLRenderingContext')
    Reflect.deleteProperty(window, 'WebGL2RenderingContext')
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(STORY)
  await expect(slot(page, 0).root).toHaveAttribute('data-3d-state', 'unsupported')
  for (let i = 0; i < steps.length; i++) {
    await scrollTo(page, i)
    const shown = page.locator('[data-story-still]:visible img')
    await expect(shown).toHaveCount(1)
    await expect(shown).toHaveAttribute('src', new RegExp(steps[i]!.still.media.split('/').pop()!))
    await expect(shown).toHaveJSProperty('complete', true)
    expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    await expect(page.getByRole('heading', { name: steps[i]!.heading })).toBeInViewport()
  }
})

// An editor previews a draft of the story (the winter release changes its second step) and finds a
// step's camera by turning the stage: "copy this view" gives the values of what it shows, in the
// syntax of the step's fields, and copies them. Out of the preview, the stage offers nothing.
test('in a preview, the draft story shows, and “copy this view” gives the camera of what the stage shows', async ({
  page,
  baseURL,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const client = prismic.createClient<prismic.PrismicDocument>(`${baseURL}/local/prismic/api/v2`)
  const { id } = await client.getByUID('page', 'story', { lang: 'en-us' })
  await page.goto(
    `/local/prismic/previews/winter-launch?websitePreviewId=winter-launch&documentId=${id}`,
  )
  await expect(page).toHaveURL(`${baseURL}${STORY}`)
  await expect(page.getByRole('heading', { name: 'Turned from one piece of ash' })).toBeVisible()

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(url3d(STORY, 'worker'))
  await waitLive(page, 0)
  await scrollTo(page, 1)
  const readout = page.locator('[data-story-view]')
  const copied = async () => {
    await page.getByRole('button', { name: 'Copy this view' }).click()
    await expect(readout).toHaveText(/^Camera .+ · Target .+ · Field of view .+ \(copied\)$/)
    const text = (await readout.textContent())!.replace(/ \(copied\)$/, '')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text)
    const [, view, target, fov] = /^Camera (.+) · Target (.+) · Field of view (.+)$/.exec(text)!
    return { view: view!, target: target!, field_of_view: Number(fov) }
  }
  const orbitOf = (view: string) => {
    const parsed = parseOrbit(view)
    if (!parsed.ok) throw new Error(parsed.reason)
    const degrees = (radians: number) => (radians * 180) / Math.PI
    return { azimuth: degrees(parsed.value.azimuth), polar: degrees(parsed.value.polar) }
  }

  // At the second step: the draft's view, 120deg 60deg 2.6m.
  const step = await copied()
  expect(orbitOf(step.view).azimuth).toBeCloseTo(120, 0)
  expect(orbitOf(step.view).polar).toBeCloseTo(60, 0)
  expect(step.view).toMatch(/ 2\.6m$/)

  // Turned by a drag: another azimuth, and values the step would take.
  const before = await stagePicture(page)
  const box = (await page.locator('.story-stage [data-3d-stage]').boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2 - 160, box.y + box.height / 2, { steps: 8 })
  await page.mouse.up()
  await expect
    .poll(async () => changedShare(before, await stagePicture(page)), { timeout: 10_000 })
    .toBeGreaterThan(0.02)
  const turned = await copied()
  const turn = orbitOf(turned.view).azimuth - orbitOf(step.view).azimuth
  expect(Math.abs(turn), `turned from ${step.view} to ${turned.view}`).toBeGreaterThan(10)
  const slice = (
    JSON.parse(readFileSync('content/documents/page/story/en-us.json', 'utf8')) as {
      data: { slices: { primary: { min_camera_orbit: string; max_camera_orbit: string } }[] }
    }
  ).data.slices[0]!.primary
  expect(
    storyStepProblems(turned, storyLimits(slice), null).map((problem) => problem.message),
  ).toEqual([])

  // Tilted far over the top and moved far out (Ctrl and the wheel): the stage stops at the
  // slice's limits, so the copy is still a view the step takes; and a drag back moves it at once.
  // Each drag starts sideways: a drag that starts up or down is the page's scroll.
  const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const drag = async (dy: number) => {
    await page.mouse.move(middle.x, middle.y)
    await page.mouse.down()
    await page.mouse.move(middle.x + 20, middle.y, { steps: 2 })
    await page.mouse.move(middle.x + 20, middle.y + dy, { steps: 8 })
    await page.mouse.up()
  }
  await drag(250)
  await page.mouse.move(middle.x, middle.y)
  await page.keyboard.down('Control')
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 2000)
  await page.keyboard.up('Control')
  const far = await copied()
  expect(
    storyStepProblems(far, storyLimits(slice), null).map((problem) => problem.message),
  ).toEqual([])
  const [, minPolar] = slice.min_camera_orbit.split(' ')
  const [, , maxDistance] = slice.max_camera_orbit.split(' ')
  expect(far.view).toMatch(new RegExp(` ${minPolar} ${maxDistance}$`))
  const atLimit = await stagePicture(page)
  await drag(-40)
  await expect
    .poll(async () => changedShare(atLimit, await stagePicture(page)), { timeout: 10_000 })
    .toBeGreaterThan(0.002)

  // Back to the step's own view.
  await page.getByRole('button', { name: 'Back to the step’s view' }).click()
  expect((await copied()).view).toBe(step.view)

  // Out of the preview: the published story, and no tool.
  expect((await page.goto('/api/exit-preview'))?.status()).toBe(200)
  await page.goto(url3d(STORY, 'worker'))
  await waitLive(page, 0)
  await expect(
    page.getByRole('heading', { name: 'Turned from one piece', exact: true }),
  ).toBeVisible()
  await expect(page.locator('[data-story-editor]')).toHaveCount(0)
})
