import { test as base, type BrowserContext, type Page } from '@playwright/test'

/**
 * `test` with `visitor`: one tab that goes from page to page through a whole spec file, as a
 * visitor's does, rather than a new browser context (and renderer) for each test.
 *
 * For the checks that load a page and read it (its markup, its metadata, axe), this is what a
 * visitor sees: each navigation loads its document afresh; only the scripts, styles and fonts come
 * from the browser's cache, as they do for anyone past the first page. It saves most of each such
 * test's time here: a fresh context's first page compiles the site's scripts and axe's 550 KB
 * again (a page's load and axe check took 3.4 s on a quiet machine, against 0.8 s in a tab that
 * stays).
 *
 * `tab` is a new tab in that same context for each test. Neither takes the context options of
 * `test.use` but the viewport (`tab` only): a test that needs another (reduced motion, a colour
 * scheme, touch, a locale) sets it on the page, or keeps `page`. So do tests that need a clean
 * state (cookies, storage, consent, a first visit, an empty cache).
 */
export const test = base.extend<{ visitor: Page; tab: Page }, { visitorContext: BrowserContext }>({
  visitorContext: [
    async ({ browser }, provide, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL })
      await provide(context)
      await context.close()
    },
    { scope: 'worker' },
  ],
  visitor: async ({ visitorContext }, provide) => {
    // A tab a failed test left crashed or closed is replaced; one that is open is reused.
    const open = visitorContext.pages().filter((p) => !p.isClosed())
    const page = open[0] ?? (await visitorContext.newPage())
    await provide(page)
  },
  // A new tab in that context, for a test that adds its own routes, listeners or scripts: nothing
  // of one test's stays for the next but the context itself (its cache, its renderer and the code
  // compiled there): about 1 s less of each model corpus test here. It has the test's viewport.
  tab: async ({ visitorContext, viewport }, provide) => {
    const page = await visitorContext.newPage()
    if (viewport) await page.setViewportSize(viewport)
    await provide(page)
    await page.close()
  },
})

export { expect } from '@playwright/test'
