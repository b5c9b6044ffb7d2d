// What an auditor checks beyond axe: live regions that are there before their words, fields told
// apart by their names, states that show in forced colours, and hotspots that cover nothing.
import { writeFileSync } from 'node:fs'
import { type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, test } from './support/visitor'
import { languages, routes } from './support/content'
import { frames, RENDER_PATHS, showcase, slot, url3d, waitLive } from './three-helpers'

const VIEWER = 2
const viewer = showcase('en-us').viewer
const LANGS = languages()

/** One page of each template, and every page with a form, in every language. */
const PAGES = LANGS.flatMap((lang) => [
  `/${lang}`,
  ...routes()
    .filter(
      (r) =>
        r.lang === lang &&
        ((r.data.slices ?? []).some((s) => /form|newsletter/.test(s.slice_type)) ||
          r.type === 'journal_index' ||
          r.url === `/${lang}/showcase`),
    )
    .map((r) => r.url),
  // A project with a model viewer, under its own uid in each language.
  routes().find(
    (r) =>
      r.lang === lang &&
      r.type === 'project' &&
      (r.data.slices ?? []).some((s) => s.slice_type === 'model_viewer'),
  )!.url,
  `/${lang}/no-such-page`,
])

/** Why the accessibility tree leaves out the element put in `window.__axProbe` (none: it is in it). */
async function axIgnored(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: 'window.__axProbe',
    })
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId! })
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
      backendNodeId: node.backendNodeId,
      fetchRelatives: false,
    })
    return (nodes[0]!.ignoredReasons ?? []).map((r) => r.name)
  } finally {
    await cdp.detach()
  }
}

test('every live region is rendered before its first message, on every page that has one', async ({
  visitor: page,
}) => {
  test.setTimeout(90_000)
  const LIVE = '[aria-live], [role="status"], [role="alert"], [role="log"]'
  const seen: string[] = []
  for (const url of PAGES) {
    await page.goto(url)
    // Hydrated: the regions the page's scripts add (the AR button's) are in.
    await page.waitForLoadState('load')
    const regions = await page.locator(LIVE).evaluateAll((all) =>
      all.map((e) => {
        const style = getComputedStyle(e)
        return {
          what: `${e.tagName.toLowerCase()}${e.getAttribute('role') ? `[role=${e.getAttribute('role')}]` : ''}${e.className ? `.${String(e.className).split(' ')[0]}` : ''}`,
          empty: !e.textContent?.trim(),
          display: style.display,
          visibility: style.visibility,
          rendered: e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }),
        }
      }),
    )
    for (const [i, region] of regions.entries()) {
      if (!region.empty) continue
      seen.push(`${url} ${region.what}: display ${region.display}`)
      expect(region.display, `${url}: ${region.what}`).not.toBe('none')
      expect(region.visibility, `${url}: ${region.what}`).toBe('visible')
      expect(region.rendered, `${url}: ${region.what}`).toBe(true)
      // In the accessibility tree, not left out as not rendered.
      const probe = page.locator(LIVE).nth(i)
      // (Next's route announcer is in a shadow root: the element is handed over, not queried.)
      await probe.evaluate((e) => ((window as unknown as { __axProbe: Element }).__axProbe = e))
      const ignored = await axIgnored(page)
      expect(ignored, `${url}: ${region.what}`).not.toContain('notRendered')
      expect(ignored, `${url}: ${region.what}`).not.toContain('notVisible')
    }
  }
  console.log(`live regions before their first message:\n${seen.join('\n')}`)
  // The forms' status and field regions and the 3D slots' were all found.
  expect(seen.filter((s) => s.includes('/contact ')).length).toBeGreaterThanOrEqual(6)
  expect(seen.some((s) => s.includes('/showcase ') && s.includes('role=status'))).toBe(true)
  for (const lang of LANGS)
    expect(seen.some((s) => s.startsWith(`/${lang}/work/`) && s.includes('role=status'))).toBe(true)
})

test('every form is named by its heading, and no two fields on a page share a name', async ({
  visitor: page,
}) => {
  test.setTimeout(60_000)
  const report: string[] = []
  for (const url of PAGES) {
    await page.goto(url)
    const cdp = await page.context().newCDPSession(page)
    const { nodes } = await cdp.send('Accessibility.getFullAXTree')
    await cdp.detach()
    const byId = new Map(nodes.map((n) => [n.nodeId, n]))
    const role = (n: (typeof nodes)[number]) => String(n.role?.value ?? '')
    const name = (n: (typeof nodes)[number]) => String(n.name?.value ?? '')
    const fields = nodes.filter(
      (n) =>
        !n.ignored &&
        ['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton'].includes(role(n)),
    )
    if (fields.length === 0) continue
    const names = fields.map((field) => {
      // The form around the field, if any, by its name.
      let up = field.parentId ? byId.get(field.parentId) : undefined
      while (up && !['form', 'search'].includes(role(up)))
        up = up.parentId ? byId.get(up.parentId) : undefined
      return { field: name(field), form: up ? name(up) : '' }
    })
    report.push(`${url}: ${names.map((n) => `${n.form} › ${n.field}`).join(' | ')}`)
    // Every field has a name, and is inside a form named by its heading.
    for (const n of names) expect(n.field, url).not.toBe('')
    const forms = await page.locator('main form').all()
    for (const form of forms) {
      const heading = await form.evaluate(
        (f) => document.getElementById(f.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
      )
      if (await form.evaluate((f) => f.getAttribute('role') === 'search')) continue
      expect(heading, `${url}: a form named by a heading`).not.toBe('')
      await expect(page.getByRole('form', { name: heading, exact: true })).toHaveCount(1)
    }
    // No two fields alike: a screen reader's list of fields tells each apart.
    const labels = names.map((n) => n.field)
    expect(
      labels.filter((l, i) => labels.indexOf(l) !== i),
      url,
    ).toEqual([])
  }
  console.log(`form fields' accessible names (form › field):\n${report.join('\n')}`)
  expect(report.some((r) => r.includes('/en-us/contact:'))).toBe(true)
})

type Clip = { x: number; y: number; width: number; height: number }

/**
 * An element's picture with `margin` px around it (its focus ring), the 3D canvas hidden: in
 * `clip` when given (the same place as a first picture), else around the element's box now.
 */
async function picture(page: Page, locator: Locator, margin = 8, clip?: Clip) {
  await locator.scrollIntoViewIfNeeded()
  await frames(page)
  const box = (await locator.boundingBox())!
  const around = clip ?? {
    x: Math.max(0, box.x - margin),
    y: Math.max(0, box.y - margin),
    width: box.width + 2 * margin,
    height: box.height + 2 * margin,
  }
  const canvases = page.locator('canvas')
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
  const png = margin
    ? await page.screenshot({ clip: around, animations: 'disabled' })
    : await locator.screenshot({ animations: 'disabled' })
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = '')))
  return { png, clip: around }
}

/** The share of pixels that differ between two pictures of one control. */
async function changed(a: Buffer, b: Buffer): Promise<number> {
  // An element's own picture (no margin) is its box rounded to whole pixels: a control placed on
  // the moving model (a hotspot) lands on another fraction of a pixel and may come out a pixel
  // wider or taller. Both are compared over the size they share; more than that is a failure.
  const sizes = await Promise.all([a, b].map((png) => sharp(png).metadata()))
  const width = Math.min(...sizes.map((m) => m.width!))
  const height = Math.min(...sizes.map((m) => m.height!))
  for (const m of sizes)
    expect(
      Math.max(m.width! - width, m.height! - height),
      'the pictures differ in size',
    ).toBeLessThanOrEqual(1)
  const [x, y] = await Promise.all(
    [a, b].map((png) =>
      sharp(png)
        .extract({ left: 0, top: 0, width, height })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true }),
    ),
  )
  let differ = 0
  for (let i = 0; i < x!.data.length; i += 3)
    if (
      Math.abs(x!.data[i]! - y!.data[i]!) +
        Math.abs(x!.data[i + 1]! - y!.data[i + 1]!) +
        Math.abs(x!.data[i + 2]! - y!.data[i + 2]!) >
      30
    )
      differ++
  return differ / (x!.info.width * x!.info.height)
}

test("in forced colours, each state changes the control's own picture", async ({ page }, info) => {
  test.setTimeout(90_000)
  await page.emulateMedia({ forcedColors: 'active' })
  const shares: Record<string, number> = {}
  type Picture = { png: Buffer }
  const compare = async (state: string, { png: before }: Picture, { png: after }: Picture) => {
    // Kept in the test's output folder (test-results/…/forced-colours-*.png) and attached.
    for (const [when, png] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const file = info.outputPath(`forced-colours-${state.replaceAll(' ', '-')}-${when}.png`)
      writeFileSync(file, png)
      await info.attach(`forced colours: ${state}, ${when}`, {
        path: file,
        contentType: 'image/png',
      })
    }
    shares[state] = await changed(before, after)
  }

  // The showcase's viewer, moving (so that it has a pause).
  await page.goto(url3d('/en-us/showcase', 'worker', 'motion'))
  await waitLive(page, VIEWER)
  const root = slot(page, VIEWER).root

  // The focused control: a view button, from the keyboard.
  const reset = root.getByRole('button', { name: viewer.reset_label })
  await reset.scrollIntoViewIfNeeded()
  const unfocused = await picture(page, reset)
  await page.keyboard.press('Shift')
  await reset.focus()
  await expect(reset).toBeFocused()
  await compare('the focused control', unfocused, await picture(page, reset, 8, unfocused.clip))
  await reset.blur()

  // A chosen finish.
  const finish = root.locator('[data-3d-variants] button').nth(1)
  await expect(finish).toHaveAttribute('aria-pressed', 'false')
  const plain = await picture(page, finish, 2)
  await finish.click()
  await expect(finish).toHaveAttribute('aria-pressed', 'true')
  await page.mouse.move(0, 0)
  await compare('a chosen finish', plain, await picture(page, finish, 2, plain.clip))

  // An open hotspot (its popover, over the stage's top, hidden for the picture).
  const hotspot = root.locator('[data-hotspot]').first()
  await expect(hotspot).toHaveAttribute('data-placed', '')
  const closed = await picture(page, hotspot, 0)
  await hotspot.click()
  await expect(hotspot).toHaveAttribute('aria-expanded', 'true')
  const popover = root.locator('[data-hotspot-popover]')
  await popover.evaluate((e) => (e.style.visibility = 'hidden'))
  await page.mouse.move(0, 0)
  await expect(hotspot).not.toBeFocused()
  await compare('an open hotspot', closed, await picture(page, hotspot, 0))
  await page.keyboard.press('Escape')

  // The pause pressed.
  const pause = root.locator('[data-3d-motion]')
  await expect(pause).toHaveAttribute('data-3d-motion', 'playing')
  const playing = await picture(page, pause, 0)
  await pause.click()
  await expect(pause).toHaveAttribute('data-3d-motion', 'paused')
  await page.mouse.move(0, 0)
  await compare('a pressed pause', playing, await picture(page, pause, 0))

  // An invalid field: the contact form's e-mail, left empty.
  await page.goto('/en-us/contact')
  const form = page.locator('.slice-contact-form form')
  const email = form.locator('input[type="email"]')
  const valid = await picture(page, email, 2)
  await email.focus()
  await email.blur()
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await compare('an invalid field', valid, await picture(page, email, 2, valid.clip))

  console.log(
    `forced colours, share of each control's picture that changed: ${JSON.stringify(shares)}`,
  )
  for (const [state, share] of Object.entries(shares))
    expect(share, `${state}: the control's picture changes`).toBeGreaterThan(0.03)
})

type Box = { x: number; y: number; width: number; height: number }
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The boxes of a viewer's controls, as laid out now. */
function boxes(root: Locator) {
  return root.evaluate((slotRoot) => {
    const figure = slotRoot.closest('[data-3d-slot]') ?? slotRoot
    const box = (e: Element) => {
      const r = e.getBoundingClientRect()
      return { x: r.x, y: r.y, width: r.width, height: r.height }
    }
    const shown = (e: Element) =>
      e.checkVisibility({ visibilityProperty: true, opacityProperty: false })
    const all = (selector: string) => [...figure.querySelectorAll(selector)].filter(shown).map(box)
    return {
      stage: box(slotRoot.querySelector('[data-3d-stage]')!),
      hotspots: all('[data-hotspot][data-placed]'),
      marks: all('[data-hotspot][data-placed] > span'),
      finishes: all('[data-3d-variants] button'),
      row: all('[data-3d-variants]'),
      views: all(
        '[data-3d-view], [data-3d-motion], button:not([data-hotspot]):not([data-variant])',
      ),
      ar: all('[data-ar-link], [data-ar-note]'),
    }
  })
}

/**
 * The model's pixels on the stage: what the canvas draws there (the stage with and without the
 * canvas), as a mask; and the share of them under some boxes (page pixels).
 */
async function modelUnder(page: Page, stage: Locator, under: Box[][]) {
  const box = (await stage.boundingBox())!
  const overlays = page.locator('[data-3d-overlay], [data-3d-variants]')
  await overlays.evaluateAll((all) => all.forEach((e) => ((e as HTMLElement).style.opacity = '0')))
  const shot = async () => {
    const png = await page.screenshot({ clip: box, animations: 'disabled' })
    return sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  }
  const seen = await shot()
  const canvases = page.locator('canvas')
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
  const bare = await shot()
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = '')))
  await overlays.evaluateAll((all) => all.forEach((e) => ((e as HTMLElement).style.opacity = '')))
  const { width, height } = seen.info
  const scale = width / box.width
  let model = 0
  const hidden = under.map(() => 0)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      const d =
        Math.abs(seen.data[i]! - bare.data[i]!) +
        Math.abs(seen.data[i + 1]! - bare.data[i + 1]!) +
        Math.abs(seen.data[i + 2]! - bare.data[i + 2]!)
      if (d <= 30) continue
      model++
      const px = box.x + (x + 0.5) / scale
      const py = box.y + (y + 0.5) / scale
      under.forEach((list, k) => {
        // A mark is round: a pixel under it is inside its circle.
        if (
          list.some((b) =>
            k === 0
              ? Math.hypot(px - (b.x + b.width / 2), py - (b.y + b.height / 2)) <= b.width / 2
              : px >= b.x && px < b.x + b.width && py >= b.y && py < b.y + b.height,
          )
        )
          hidden[k]!++
      })
    }
  expect(model, 'the model is drawn on the stage').toBeGreaterThan(500)
  return hidden.map((n) => n / model)
}

for (const path of RENDER_PATHS)
  test.describe(`${path} path`, () => {
    // Both devices on the worker path; the phone, where room is scarce, on the main thread too.
    for (const [device, size] of [
      ['a phone', { width: 412, height: 915 }],
      ...(path === 'worker' ? ([['a desktop', { width: 1280, height: 800 }]] as const) : []),
    ] as const)
      test(`hotspots never overlap each other, the finishes or the view buttons, on ${device}; the model stays visible`, async ({
        page,
      }) => {
        await page.setViewportSize(size)
        await page.goto(url3d('/en-us/showcase', path))
        await waitLive(page, VIEWER)
        const { root, stage } = slot(page, VIEWER)
        await expect(root.locator('[data-hotspot][data-placed]').first()).toBeVisible()
        await expect(root.locator('[data-3d-variants] button').first()).toBeVisible()

        let smallestGap = Infinity
        const check = async (view: string) => {
          await frames(page)
          const b = await boxes(root)
          // The room between two buttons' boxes (on the axis they are apart).
          for (const [i, h] of b.hotspots.entries())
            for (const o of b.hotspots.slice(i + 1))
              smallestGap = Math.min(
                smallestGap,
                Math.max(
                  o.x - (h.x + h.width),
                  h.x - (o.x + o.width),
                  o.y - (h.y + h.height),
                  h.y - (o.y + o.height),
                ),
              )
          expect(b.hotspots.length, view).toBeGreaterThanOrEqual(3)
          for (const [i, h] of b.hotspots.entries()) {
            for (const other of b.hotspots.slice(i + 1))
              expect(overlap(h, other), `${view}: two hotspots overlap`).toBe(false)
            for (const c of [...b.finishes, ...b.views, ...b.ar])
              expect(overlap(h, c), `${view}: a hotspot over a control`).toBe(false)
            // Whole inside the stage.
            expect(h.x >= b.stage.x - 0.5 && h.x + h.width <= b.stage.x + b.stage.width + 0.5).toBe(
              true,
            )
          }
          // The finishes sit under the stage, not over the model.
          for (const row of b.row)
            expect(row.y, `${view}: the finishes under the stage`).toBeGreaterThanOrEqual(
              b.stage.y + b.stage.height - 0.5,
            )
          return b
        }

        const first = await check('as it opens')
        const [underMarks, underRow] = await modelUnder(page, stage, [first.marks, first.row])
        console.log(
          `${path}, ${device}: ${(100 * underMarks!).toFixed(1)} % of the model under the hotspot marks, ${(100 * underRow!).toFixed(1)} % under the finishes`,
        )
        expect(underMarks!, 'the marks hide well under a fifth of the model').toBeLessThan(0.12)
        expect(underRow!, 'the finishes hide none of the model').toBeLessThan(0.03)

        // Turned, zoomed out (the points crowd together) and in, tilted: still apart.
        const press = async (name: string, times: number) => {
          for (let i = 0; i < times; i++) await root.getByRole('button', { name }).click()
        }
        await press(viewer.zoom_out_label, 4)
        await check('zoomed out')
        await press(viewer.turn_left_label, 3)
        await check('turned')
        await press(viewer.tilt_down_label, 2)
        await check('tilted')
        await press(viewer.zoom_in_label, 6)
        await check('zoomed in')
        console.log(
          `${path}, ${device}: the smallest gap between two hotspot buttons, over five views: ${smallestGap.toFixed(1)} px`,
        )
      })
  })
