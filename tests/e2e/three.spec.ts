import * as prismic from '@prismicio/client'
import { expect, test, type Page, type Request } from '@playwright/test'
import {
  COUNT_WEBGL_CONTEXTS,
  expectHotspotList,
  frames,
  pixels,
  RENDER_PATHS,
  sceneShare,
  showcase,
  slot,
  url3d,
  waitLive,
} from './three-helpers'
import { showcaseHotspots } from './support/content'
import { hotspotProblems, parseNormal, parseOrbit, parseVec3 } from '../../rules/hotspots'
import { axeViolations } from './support/axe'

// The showcase page holds the three kinds of scene, in this order.
const PROCEDURAL = 0
const MODEL = 1
const VIEWER = 2
const content = showcase('en-us')
/** The showcase viewer's hotspots as the editor wrote them. */
const showcaseFile = {
  hotspots: content.viewer.hotspots as unknown as {
    label: string
    position: string
    normal: string
    view: string
  }[],
}

/** Waits until the viewer's camera is on the orbit `view` (as a hotspot's view is written). */
type Orbit = { azimuth: number; polar: number; distance: number }

/** The showcase viewer's camera orbit now, as the renderer reports it (the debug hook's `orbits`). */
function orbitNow(page: Page): Promise<Orbit> {
  return page.evaluate(
    () =>
      Object.values(
        (window as unknown as { __facet3d: { orbits: Record<string, Orbit> } }).__facet3d.orbits,
      )[0]!,
  )
}

async function expectOrbit(page: Page, view: string) {
  const orbit = parseOrbit(view)
  if (!orbit.ok) throw new Error(orbit.reason)
  await expect
    .poll(() => orbitNow(page))
    .toEqual({
      azimuth: expect.closeTo(orbit.value.azimuth, 3),
      polar: expect.closeTo(orbit.value.polar, 3),
      distance: expect.any(Number),
    })
}

test.use({ viewport: { width: 1000, height: 900 } })

/** Every request the page makes, to check that none leaves the origin. */
/** Matches a media file by its path, whatever its query (media URLs carry `v=<content hash>`). */
function mediaPath(suffix: string): (url: URL) => boolean {
  return (url) => url.pathname.endsWith(suffix)
}

function recordRequests(page: Page): Request[] {
  const requests: Request[] = []
  page.on('request', (request) => requests.push(request))
  return requests
}

/** Takes WebGL away from canvases made in this realm (the page's, or a worker's). */
const NO_WEBGL = () => {
  for (const type of [globalThis.HTMLCanvasElement, globalThis.OffscreenCanvas]) {
    if (!type) continue
    const original = type.prototype.getContext as (...args: unknown[]) => unknown
    type.prototype.getContext = function (this: unknown, kind: string, ...rest: unknown[]) {
      if (/webgl/.test(kind)) return null
      return original.call(this, kind, ...rest)
    } as typeof type.prototype.getContext
  }
}

function expectSameOrigin(requests: Request[], origin: string) {
  const foreign = requests
    .map((r) => r.url())
    .filter((url) => !url.startsWith('data:') && !url.startsWith('blob:'))
    .filter((url) => new URL(url).origin !== origin)
  expect(foreign).toEqual([])
}

for (const path of RENDER_PATHS) {
  test.describe(`live 3D on the showcase page (${path} path)`, () => {
    test('the procedural hero draws its scene over the poster, which fades', async ({ page }) => {
      await page.goto(url3d('/en-us/showcase', path))
      const hero = slot(page, PROCEDURAL)
      // First paint: the poster, before any 3D.
      await expect(hero.poster).toBeVisible()
      await waitLive(page, PROCEDURAL)
      expect(await sceneShare(page, hero.stage)).toBeGreaterThan(0.05)
      await expect(
        page.getByRole('img', { name: content.procedural.scene_description }),
      ).toBeVisible()
    })

    test('the model hero draws its GLB', async ({ page }) => {
      await page.goto(url3d('/en-us/showcase', path))
      await waitLive(page, MODEL)
      expect(await sceneShare(page, slot(page, MODEL).stage)).toBeGreaterThan(0.03)
    })

    test('the viewer draws its model, shows progress, and describes it', async ({ page }) => {
      // Hold the model back, to see the progress bar while it downloads.
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      // Media URLs carry their content hash in the query (`&v=…`): match the path alone.
      await page.route(mediaPath('/models/lamp.glb'), async (route) => {
        await held
        await route.continue()
      })
      await page.goto(url3d('/en-us/showcase', path))
      const viewer = slot(page, VIEWER)
      await viewer.stage.scrollIntoViewIfNeeded()
      await expect(
        page.getByRole('progressbar', { name: content.viewer.loading_label }),
      ).toBeVisible({
        timeout: 30_000,
      })
      release()
      await waitLive(page, VIEWER)
      await expect(page.getByRole('progressbar')).toHaveCount(0)
      expect(await sceneShare(page, viewer.stage)).toBeGreaterThan(0.03)
      // An image named by the description, not a focus stop of its own (its buttons are the way
      // to operate it: three-access.spec.ts).
      const described = page.getByRole('img', { name: content.viewer.description })
      await expect(described).not.toHaveAttribute('tabindex')
      await expect(described).toHaveAccessibleDescription(content.viewer.controls_hint)
    })

    test('with ?debug3d=pick, a click shows the point of the model and its normal, ready to paste into a hotspot', async ({
      page,
    }) => {
      await page.goto(url3d('/en-us/showcase', path, 'pick'))
      await waitLive(page, VIEWER)
      const viewer = slot(page, VIEWER)
      const readout = viewer.root.locator('[data-3d-picked]')
      await expect(readout).toHaveText(/^Click the model/)
      await viewer.stage.scrollIntoViewIfNeeded()
      const box = (await viewer.stage.boundingBox())!
      // The lamp's base, as the viewer frames it: the middle of the stage, near its bottom.
      await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.87)
      await expect(readout).toHaveText(/^Position /)
      const [, position, normal] = /^Position (.+) · Normal (.+)$/.exec(
        (await readout.textContent())!,
      )!
      // What the slice's fields take, and content:check passes.
      const point = parseVec3(position)
      const facing = parseNormal(normal)
      expect(hotspotProblems({ label: 'Base', position, normal })).toEqual([])
      if (!point.ok || !facing.ok) throw new Error(`not a hotspot: ${position} / ${normal}`)
      // On the base (a disc 1.4 m across and 0.12 m thick, at the model's origin), on a side
      // the camera sees: its top, or its front edge.
      const [x, y, z] = point.value
      expect(Math.hypot(x, z)).toBeLessThanOrEqual(0.71)
      expect(Math.abs(y)).toBeLessThanOrEqual(0.061)
      expect(Math.max(facing.value[1], facing.value[2])).toBeGreaterThan(0.5)
      // Beside the model, nothing.
      await page.mouse.click(box.x + 8, box.y + 8)
      await expect(readout).toHaveText('No part of the model under that click.')
      // A drag still turns the model, and picks nothing.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.87)
      await page.mouse.down()
      await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height * 0.87, { steps: 6 })
      await page.mouse.up()
      await frames(page)
      await expect(readout).toHaveText('No part of the model under that click.')
    })

    test("hotspots are the page's own buttons on the model: placed on their points, dimmed when turned away, opened by click or key, closed by Escape", async ({
      page,
    }) => {
      await page.goto(url3d('/en-us/showcase', path, 'pick'))
      await waitLive(page, VIEWER)
      const viewer = slot(page, VIEWER)
      const hotspots = showcaseFile.hotspots
      const buttons = viewer.root.locator('[data-hotspot]')
      await expect(buttons).toHaveCount(hotspots.length)
      // Each a button named by its label, described by its detail.
      for (const [i, [label, detail]] of showcaseHotspots().items.entries()) {
        const button = viewer.root.getByRole('button', { name: label, exact: true })
        await expect(button).toHaveAttribute('data-hotspot', String(i))
        await expect(button).toHaveAccessibleDescription(detail)
        await expect(button).not.toHaveAttribute('aria-disabled')
      }

      // Each sits on its point: the model under its centre (the renderer's own ray, `pick`) is
      // the position the editor wrote. The buttons let the click through for this only.
      const readout = viewer.root.locator('[data-3d-picked]')
      await page.addStyleTag({ content: '[data-hotspot] { pointer-events: none !important }' })
      for (const [i, hotspot] of hotspots.entries()) {
        const box = (await buttons.nth(i).boundingBox())!
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
        await expect(readout).toHaveText(/^Position /)
        const picked = parseVec3(/^Position (.+) · /.exec((await readout.textContent())!)![1])
        const written = parseVec3(hotspot.position)
        if (!picked.ok || !written.ok) throw new Error('not a position')
        const apart = Math.hypot(...picked.value.map((c, k) => c - written.value[k]!))
        expect(apart, `${hotspot.label}: picked ${picked.value.join(' ')}`).toBeLessThan(0.05)
        await readout.evaluate((element) => (element.textContent = ''))
      }
      await page.evaluate(() => document.querySelector('style:last-of-type')?.remove())

      // The hotspots follow each other in the tab order; Enter opens one's detail in a popover,
      // whose focus Escape gives back; the camera turns to the hotspot's view.
      const popover = viewer.root.getByRole('dialog')
      await buttons.nth(1).focus()
      await page.keyboard.press('Shift+Tab')
      await expect(buttons.nth(0)).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(popover).toHaveAccessibleName(hotspots[0]!.label)
      await expect(popover).toContainText(showcaseHotspots().items[0]![1])
      await expect(popover).toBeFocused()
      await expect(buttons.nth(0)).toHaveAttribute('aria-expanded', 'true')
      await expectOrbit(page, hotspots[0]!.view)
      expect(await axeViolations(page)).toEqual([])
      await page.keyboard.press('Escape')
      await expect(popover).toHaveCount(0)
      await expect(buttons.nth(0)).toBeFocused()
      await expect(buttons.nth(0)).toHaveAttribute('aria-expanded', 'false')

      // A click opens another; a press elsewhere on the page closes it.
      await buttons.nth(1).click()
      await expect(popover).toHaveAccessibleName(hotspots[1]!.label)
      await expectOrbit(page, hotspots[1]!.view)
      await page.getByRole('heading', { level: 1 }).click()
      await expect(popover).toHaveCount(0)

      // Turned half round (the arrow keys on a view button), the model faces each hotspot away:
      // dimmed, not pressable, and still in the tab order with its label.
      await viewer.root.locator('[data-3d-view="turnRight"]').focus()
      for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight')
      for (let i = 0; i < hotspots.length; i++) {
        await expect(buttons.nth(i)).toHaveAttribute('aria-disabled', 'true')
        await expect(buttons.nth(i)).toHaveCSS('opacity', '0.35')
      }
      // Scrolled away and back, the model keeps the visitor's turn (it was framed again each
      // time the slot's visibility changed, undoing it).
      const turned = (await orbitNow(page)).azimuth
      await page.evaluate(() => window.scrollTo(0, 0))
      await frames(page)
      await frames(page)
      await viewer.stage.scrollIntoViewIfNeeded()
      await frames(page)
      await frames(page)
      expect((await orbitNow(page)).azimuth).toBeCloseTo(turned, 5)
      for (let i = 0; i < hotspots.length; i++)
        await expect(buttons.nth(i)).toHaveAttribute('aria-disabled', 'true')
      await buttons.nth(0).focus()
      await page.keyboard.press('Enter')
      const box = (await buttons.nth(1).boundingBox())!
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
      await frames(page)
      await expect(popover).toHaveCount(0)
      await expect(viewer.root.getByRole('button', { name: hotspots[0]!.label })).toBeVisible()
    })

    test("the lamp's finishes: a row named by the slice, each relabelled by the editor; a press relacquers the shade, says so and names it in the URL", async ({
      page,
    }) => {
      await page.goto(url3d('/en-us/showcase', path))
      await waitLive(page, VIEWER)
      const { root, stage } = slot(page, VIEWER)
      const row = root.getByRole('group', { name: content.viewer.variants_label })
      const rows = content.viewer.variant_labels as unknown as { name: string; label: string }[]
      await expect(row.getByRole('button')).toHaveText(rows.map((r) => r.label))
      const redShare = async () => {
        const { data } = await pixels(stage)
        let red = 0
        for (let i = 0; i < data.length; i += 3)
          if (data[i]! > data[i + 1]! + 80 && data[i]! > data[i + 2]! + 80) red++
        return red / (data.length / 3)
      }
      expect(await redShare()).toBeLessThan(0.001)
      const red = rows.find((r) => r.name === 'Red')!
      await row.getByRole('button', { name: red.label }).click()
      await expect(row.getByRole('button', { name: red.label })).toHaveAttribute(
        'aria-pressed',
        'true',
      )
      // Said in the slot's live region (on the page since its first paint).
      await expect(root.locator('[data-3d-status]')).toHaveText(
        `${content.viewer.variants_label}: ${red.label}`,
      )
      expect(await redShare()).toBeGreaterThan(0.005)
      expect(new URL(page.url()).searchParams.get('variant')).toBe('Red')
      // With the row, the page still passes axe.
      expect(await axeViolations(page)).toEqual([])
    })

    test('opening a hotspot turns the camera to its view: animated, or at once with reduced motion', async ({
      browser,
    }) => {
      test.setTimeout(150_000)
      const hotspot = showcaseFile.hotspots[1]!
      const orbit = parseOrbit(hotspot.view)
      if (!orbit.ok) throw new Error(orbit.reason)
      for (const reducedMotion of ['no-preference', 'reduce'] as const) {
        const context = await browser.newContext({
          reducedMotion,
          viewport: { width: 1000, height: 900 },
        })
        const page = await context.newPage()
        // `motion`: let the software renderer play motion, as a GPU would.
        await page.goto(url3d('/en-us/showcase', path, 'motion'))
        await waitLive(page, VIEWER)
        const button = slot(page, VIEWER).root.locator('[data-hotspot="1"]')
        // The lamp turns by itself 2 s after it is live, and the joint faces away for half a turn.
        // A loaded machine draws a frame a second or less, and a frame advances the turn by 0.1 s
        // at most, so that half turn can last far longer than the usual 10 s.
        await expect(button).not.toHaveAttribute('aria-disabled', { timeout: 40_000 })
        // Every azimuth the renderer reports from the press until it has turned: each report is
        // recorded as it is assigned to the hook, so a busy page thread that handles several in
        // one frame loses none of them.
        const [start, ...seen] = await page.evaluate(
          async ({ target }) => {
            type Orbits = Record<string, { azimuth: number }>
            const hook = (window as unknown as { __facet3d: { orbits: Orbits } }).__facet3d
            const first = (orbits: Orbits) => Object.values(orbits)[0]?.azimuth
            let current = hook.orbits
            const azimuths: number[] = [first(current)!]
            let arrived: () => void
            const there = new Promise<void>((resolve) => (arrived = resolve))
            Object.defineProperty(hook, 'orbits', {
              configurable: true,
              get: () => current,
              set: (orbits: Orbits) => {
                current = orbits
                const azimuth = first(orbits)
                if (azimuth === undefined || azimuths.at(-1) === azimuth) return
                azimuths.push(azimuth)
                if (Math.abs(azimuth - target) < 1e-6) arrived()
              },
            })
            document.querySelector<HTMLElement>('[data-hotspot="1"]')!.click()
            await Promise.race([there, new Promise((resolve) => setTimeout(resolve, 5000))])
            return azimuths
          },
          { target: orbit.value.azimuth },
        )
        expect(seen.at(-1)).toBeCloseTo(orbit.value.azimuth, 5)
        // Animated: the camera passes through angles on its way; reduced: it is there at once.
        const between = seen.filter(
          (azimuth) =>
            Math.abs(azimuth - orbit.value.azimuth) > 0.05 && Math.abs(azimuth - start!) > 0.05,
        )
        if (reducedMotion === 'reduce') expect(between).toEqual([])
        else expect(between.length).toBeGreaterThan(0)
        await context.close()
      }
    })

    test('nothing on the page moves when the viewer goes live', async ({ page }) => {
      await page.addInitScript(() => {
        const w = window as Window & { __shifts?: string[] }
        w.__shifts = []
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number
            sources: { node?: Node }[]
          })[]) {
            const moved = entry.sources.map((s) => (s.node as Element | undefined)?.className)
            w.__shifts!.push(`${entry.value.toFixed(3)} at ${entry.startTime}: ${moved.join(', ')}`)
          }
        }).observe({ type: 'layout-shift', buffered: true })
      })
      await page.goto(url3d('/en-us/showcase', path))
      // Where the page ends, in the document, while the viewer is still its poster.
      const footerTop = () =>
        page.locator('.site-footer').evaluate((e) => e.getBoundingClientRect().top + window.scrollY)
      const before = await footerTop()
      await slot(page, VIEWER).stage.scrollIntoViewIfNeeded()
      await waitLive(page, VIEWER)
      await expect(
        slot(page, VIEWER).root.getByRole('button', { name: content.viewer.reset_label }),
      ).toBeVisible()
      expect(await footerTop()).toBe(before)
      expect(
        await page.evaluate(() => (window as Window & { __shifts?: string[] }).__shifts),
      ).toEqual([])
    })

    test('no request leaves the origin, and the page has one WebGL context', async ({
      page,
      baseURL,
    }) => {
      await page.addInitScript(COUNT_WEBGL_CONTEXTS)
      const requests = recordRequests(page)
      await page.goto(url3d('/en-us/showcase', path))
      for (const index of [PROCEDURAL, MODEL, VIEWER]) await waitLive(page, index)
      expect(
        await page.evaluate(
          () => (window as unknown as { __webglContexts: number }).__webglContexts,
        ),
      ).toBe(1)
      expect(requests.some((r) => new URL(r.url()).pathname.endsWith('.glb'))).toBe(true)
      expectSameOrigin(requests, new URL(baseURL!).origin)
    })

    test('the home page, with its 3D hero, stays on the origin with at most one context', async ({
      page,
      baseURL,
    }) => {
      await page.addInitScript(COUNT_WEBGL_CONTEXTS)
      const requests = recordRequests(page)
      await page.goto(url3d('/en-us', path))
      await waitLive(page, 0)
      const contexts = await page.evaluate(
        () => (window as unknown as { __webglContexts: number }).__webglContexts,
      )
      expect(contexts).toBeLessThanOrEqual(1)
      expectSameOrigin(requests, new URL(baseURL!).origin)
    })
  })

  test.describe(`3D fallbacks (${path} path)`, () => {
    test('without WebGL: the poster and the description', async ({ page }) => {
      await page.addInitScript(NO_WEBGL)
      // The worker has no WebGL either: its scripts get the same patch first.
      if (path === 'worker')
        await page.route('**/_next/static/**/*.js', async (route) => {
          const response = await route.fetch()
          const body = `(${NO_WEBGL.toString()})();\n${await response.text()}`
          await route.fulfill({ response, body })
        })
      await page.goto(url3d('/en-us/showcase', path))
      for (const index of [PROCEDURAL, MODEL, VIEWER]) {
        const s = slot(page, index)
        await expect(s.root).toHaveAttribute('data-3d-state', 'unsupported', { timeout: 30_000 })
        await expect(s.poster).toBeVisible()
      }
      await expect(
        page.getByText(content.procedural.scene_description, { exact: true }),
      ).toBeVisible()
      await expect(page.getByText(content.viewer.description, { exact: true })).toBeVisible()
      await expect(page.getByRole('button', { name: content.viewer.reset_label })).toHaveCount(0)
      // The hotspots' words are not lost: listed under the viewer, as they are in the HTML.
      await expectHotspotList(page)
      const html = await (await page.request.get('/en-us/showcase')).text()
      for (const [label] of showcaseHotspots().items) expect(html).toContain(label)
    })

    test('with Save-Data: the poster until the visitor asks for 3D', async ({ page }) => {
      await page.addInitScript(() => {
        Object.defineProperty(navigator, 'connection', { value: { saveData: true } })
      })
      await page.goto(url3d('/en-us/showcase', path))
      const hero = slot(page, PROCEDURAL)
      await expect(hero.root).toHaveAttribute('data-3d-state', 'ask')
      // After load and an idle period, still no canvas and no worker: the 3D chunk was not
      // fetched, nor warmed up near the screen (which, without Save-Data, starts at that idle).
      await page.waitForLoadState('load')
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
      await expect(page.locator('canvas')).toHaveCount(0)
      expect(page.workers()).toEqual([])
      await expect(hero.poster).toBeVisible()
      // Before the 3D starts, the viewer's hotspots are listed under its poster.
      await expectHotspotList(page)

      await hero.root.getByRole('button', { name: content.procedural.load_label }).click()
      await waitLive(page, PROCEDURAL)
      expect(await sceneShare(page, hero.stage)).toBeGreaterThan(0.05)
      // The others keep their posters until asked.
      await expect(slot(page, MODEL).root).toHaveAttribute('data-3d-state', 'ask')
    })

    test('after WebGL context loss: the poster, and the scene returns on restore', async ({
      page,
    }) => {
      await page.goto(url3d('/en-us/showcase', path))
      await waitLive(page, PROCEDURAL)
      const hero = slot(page, PROCEDURAL)
      // As a GPU reset would: the renderer's own context, in the worker or on the main thread.
      await page.evaluate(() =>
        (window as unknown as { __facet3d: { loseContext: () => void } }).__facet3d.loseContext(),
      )
      await expect(hero.root).toHaveAttribute('data-3d-state', 'lost')
      await expect(hero.root.locator('[data-3d-stage] > div').first()).toHaveCSS('opacity', '1')
      await expect(hero.poster).toBeVisible()

      await page.evaluate(() =>
        (
          window as unknown as { __facet3d: { restoreContext: () => void } }
        ).__facet3d.restoreContext(),
      )
      await waitLive(page, PROCEDURAL)
      expect(await sceneShare(page, hero.stage)).toBeGreaterThan(0.05)
    })

    test('a model that fails to load: the poster with a message, the rest unaffected', async ({
      page,
    }) => {
      await page.route(mediaPath('/models/vessel.glb'), (route) => route.fulfill({ status: 404 }))
      await page.goto(url3d('/en-us/showcase', path))
      const model = slot(page, MODEL)
      await model.stage.scrollIntoViewIfNeeded()
      await expect(model.root).toHaveAttribute('data-3d-state', 'error', { timeout: 30_000 })
      // Shown, and said in the slot's live region.
      await expect(model.root.locator('p[aria-hidden="true"]')).toHaveText(
        content.model.error_message,
      )
      await expect(model.root.locator('p[aria-hidden="true"]')).toBeVisible()
      await expect(model.root.getByRole('status')).toHaveText(content.model.error_message)
      await expect(model.poster).toBeVisible()
      // The other scenes and the page itself carry on.
      await waitLive(page, VIEWER)
      expect(await sceneShare(page, slot(page, VIEWER).stage)).toBeGreaterThan(0.03)
      await expect(page.locator('h1')).toBeVisible()
    })
  })
}

// An editor in a Prismic preview finds a hotspot's position as `?debug3d=pick` does, with no flag
// to type (docs/3d-models.md): the preview cookie turns the readout on, and leaving the preview
// turns it off again. Once, on the worker path: the cookie is read by the page, whichever path
// then draws.
test('in a preview, a click on the model shows its point and normal; out of it, nothing does', async ({
  page,
  baseURL,
}) => {
  const client = prismic.createClient<prismic.PrismicDocument>(`${baseURL}/local/prismic/api/v2`)
  const { id } = await client.getByUID('page', 'showcase', { lang: 'en-us' })
  // The release's preview link, as Prismic's toolbar opens it: it lands on the showcase with
  // Prismic's preview cookie set.
  await page.goto(
    `/local/prismic/previews/winter-launch?websitePreviewId=winter-launch&documentId=${id}`,
  )
  await expect(page).toHaveURL(`${baseURL}/en-us/showcase`)
  expect((await page.context().cookies()).some((c) => c.name === prismic.cookie.preview)).toBe(true)

  await page.goto(url3d('/en-us/showcase', 'worker'))
  await waitLive(page, VIEWER)
  const viewer = slot(page, VIEWER)
  const readout = viewer.root.locator('[data-3d-picked]')
  await expect(readout).toHaveText(/^Click the model/)
  const box = (await viewer.stage.boundingBox())!
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.87)
  await expect(readout).toHaveText(/^Position \S+ \S+ \S+ · Normal \S+ \S+ \S+$/)
  const [, position, normal] = /^Position (.+) · Normal (.+)$/.exec((await readout.textContent())!)!
  expect(hotspotProblems({ label: 'Base', position, normal })).toEqual([])

  // The preview ended: the same page, the same click, and no readout.
  expect((await page.goto('/api/exit-preview'))?.status()).toBe(200)
  await page.goto(url3d('/en-us/showcase', 'worker'))
  await waitLive(page, VIEWER)
  const again = (await viewer.stage.boundingBox())!
  await page.mouse.click(again.x + again.width / 2, again.y + again.height * 0.87)
  await frames(page)
  await expect(viewer.root.locator('[data-3d-picked]')).toHaveCount(0)
})
