import { expect, test } from './support/visitor'
import { axeViolations, WCAG } from './support/axe'
import { languages } from './support/content'

// Every document route is also checked by axe in site.spec.ts, where it is loaded anyway; here:
// the other states of the routes, and each template against axe's best practices in both themes.

const LANGS = languages()

/** The states of the indexes and the 404, in each language. */
const STATES = LANGS.flatMap((lang) => [
  `/${lang}/work?page=2`,
  `/${lang}/work?tag=3d`,
  `/${lang}/journal?page=2`,
  `/${lang}/journal?q=zzzz-no-match`,
  `/${lang}/no-such-page`,
])

/** One page of each template. */
const TEMPLATES = ['', '/about', '/work', '/journal', '/work/lumen-lamp', '/no-such-page']

test.describe('axe finds no WCAG 2.2 A or AA violation', () => {
  for (const url of STATES) {
    test(url, async ({ visitor: page }) => {
      await page.goto(url)
      expect(await axeViolations(page)).toEqual([])
    })
  }
})

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no violation of WCAG or best practice on each template, ${colorScheme} theme`, async ({
    visitor: page,
  }) => {
    test.setTimeout(120_000)
    // The visitor's system theme, for this test only (the tab goes on to the next test).
    await page.emulateMedia({ colorScheme })
    try {
      for (const path of TEMPLATES) {
        await page.goto(`/${LANGS[0]}${path}`)
        expect(
          await axeViolations(page, { tags: [...WCAG, 'best-practice'] }),
          path || '/',
        ).toEqual([])
      }
    } finally {
      await page.emulateMedia({ colorScheme: null })
    }
  })
}

test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
  await page.goto(`/${LANGS[0]}/about`)
  await page.keyboard.press('Tab')
  const skip = page.locator('.skip-link')
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('main')).toBeFocused()
})

test('each stop Tab reaches shows its whole focus ring in the window', async ({ page }) => {
  // A phone's window, a long page: most stops are scrolled into view by the key that reaches them.
  await page.setViewportSize({ width: 412, height: 823 })
  await page.goto(`/${LANGS[0]}/journal`)
  const cut: string[] = []
  let stops = 0
  for (let i = 0; i < 80; i++) {
    // Leaving an empty required field shows its error (the forms validate on blur), which moves
    // what follows it down the page. A visitor sees the message before their next key; measured
    // and tabbed on before it was drawn, a later stop was scrolled into view, then moved.
    const leaving = await page.evaluate(() => {
      const field = document.activeElement
      const empty =
        (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
        field.getAttribute('aria-required') === 'true' &&
        field.value === ''
      if (empty) field.setAttribute('data-test-leaving', '')
      return empty
    })
    await page.keyboard.press('Tab')
    if (leaving) {
      const field = page.locator('[data-test-leaving]')
      await expect(field).toHaveAttribute('aria-invalid', 'true')
      await field.evaluate((f) => f.removeAttribute('data-test-leaving'))
    }
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    const stop = await page.evaluate(() => {
      const element = document.activeElement
      if (!element || element === document.body) return null
      const style = getComputedStyle(element)
      const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset)
      const { top, bottom } = element.getBoundingClientRect()
      return {
        name: `${element.tagName} "${(element.textContent ?? '').trim().slice(0, 30)}"`,
        ring,
        top: top - ring,
        bottom: bottom + ring,
        height: window.innerHeight,
      }
    })
    // Focus has gone round the page and out of it.
    if (!stop) break
    stops++
    expect(stop.ring, `${stop.name} has a focus ring`).toBeGreaterThan(0)
    if (stop.top < 0 || stop.bottom > stop.height)
      cut.push(`${stop.name}: ring from ${stop.top} to ${stop.bottom} px, window ${stop.height} px`)
  }
  expect(stops).toBeGreaterThan(10)
  expect(cut).toEqual([])
})

test('a focus ring stands out from what is behind it, on the accent band too', async ({ page }) => {
  // The accent call-to-action band is the ring's own colour: there the ring takes the band's text.
  await page.goto(`/${LANGS[0]}`)
  const band = page.locator('.slice-cta.is-accent')
  await expect(band).toHaveCount(1)
  const rings: string[] = []
  for (const control of await band.locator('a, button').all()) {
    await control.focus()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Tab')
    const { ring, behind } = await control.evaluate((element) => {
      const rgb = (colour: string) =>
        colour
          .match(/\d+(\.\d+)?/g)!
          .slice(0, 3)
          .map(Number)
      const luminance = ([r, g, b]: number[]) => {
        const [R, G, B] = [r!, g!, b!].map((c) => {
          const v = c / 255
          return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
        })
        return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!
      }
      const band = element.closest('.slice-cta')!
      return {
        ring: luminance(rgb(getComputedStyle(element).outlineColor)),
        behind: luminance(rgb(getComputedStyle(band).backgroundColor)),
      }
    })
    const contrast = (Math.max(ring, behind) + 0.05) / (Math.min(ring, behind) + 0.05)
    rings.push(`${await control.textContent()}: ${contrast.toFixed(1)}:1`)
    // WCAG 1.4.11 (Non-text Contrast) asks 3:1 of a focus indicator against what is beside it.
    expect(contrast, rings.join('; ')).toBeGreaterThanOrEqual(3)
  }
  expect(rings.length).toBeGreaterThan(0)
})

test('the FAQ opens and closes from the keyboard, without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(`/${LANGS[0]}/about`)
  const first = page.locator('.faq-item').first()
  await expect(first).not.toHaveAttribute('open', '')
  await first.locator('summary').focus()
  await page.keyboard.press('Enter')
  await expect(first).toHaveAttribute('open', '')
  await page.keyboard.press('Enter')
  await expect(first).not.toHaveAttribute('open', '')
  await context.close()
})
