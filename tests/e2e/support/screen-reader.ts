// A screen reader in the page: Guidepup's Virtual Screen Reader (@guidepup/virtual-screen-reader),
// which walks the accessibility tree as a reader's browse mode does (role, name, description,
// states) and speaks a live region's changes as a reader hears them: only a change inside a region
// that was already on the page. Bundled once per run (esbuild, its browser build) and put in the
// page by the driver (`page.evaluate`, WebDriver's script), which no Content Security Policy
// refuses, so the page's own policy stays as it ships.
import { build } from 'esbuild'
import type { Page } from '@playwright/test'

let bundled: Promise<string> | null = null

/**
 * A script that sets `window.__screenReader` (the library's `virtual`): runs as a plain script or
 * as a function's body (WebDriver's executeScript).
 */
export function screenReaderScript(): Promise<string> {
  return (bundled ??= build({
    stdin: {
      contents: "export { virtual } from '@guidepup/virtual-screen-reader/browser.js'",
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'iife',
    globalName: '__guidepup',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  }).then(
    ({ outputFiles }) =>
      `${outputFiles[0]!.text}\nwindow.__screenReader = __guidepup.virtual;\nreturn true;`,
  ))
}

type Reader = {
  start: (options: { container: Element }) => Promise<void>
  stop: () => Promise<void>
  next: () => Promise<void>
  lastSpokenPhrase: () => Promise<string>
  spokenPhraseLog: () => Promise<string[]>
  clearSpokenPhraseLog: () => Promise<void>
}

/** Starts the reader over the element `selector` names (the whole page: `body`). */
export async function startScreenReader(page: Page, selector = 'body'): Promise<void> {
  const script = await screenReaderScript()
  await page.evaluate(`(() => {${script}})()`)
  await page.evaluate(async (selector) => {
    const reader = (window as unknown as { __screenReader: Reader }).__screenReader
    await reader.start({ container: document.querySelector(selector)! })
  }, selector)
}

/** Everything the reader has said since it started (or since `forget`). */
export function heard(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { __screenReader: Reader }).__screenReader.spokenPhraseLog(),
  )
}

/**
 * What the live regions said, as the reader heard them ("polite: …"), without the prefix; a region
 * emptied says nothing.
 */
export async function announced(page: Page): Promise<string[]> {
  return (await heard(page))
    .filter((phrase) => /^(polite|assertive): /.test(phrase))
    .map((phrase) => phrase.replace(/^(polite|assertive): /, '').trim())
    .filter(Boolean)
}

/** Forgets what was said so far. */
export function forget(page: Page): Promise<void> {
  return page.evaluate(() =>
    (window as unknown as { __screenReader: Reader }).__screenReader.clearSpokenPhraseLog(),
  )
}

/**
 * Moves the reader on, item by item as a visitor's down arrow does in browse mode, until it says
 * `last` (or after `limit` items), and returns what it said on the way.
 */
export function readOn(page: Page, last: string, limit = 200): Promise<string[]> {
  return page.evaluate(
    async ({ last, limit }) => {
      const reader = (window as unknown as { __screenReader: Reader }).__screenReader
      await reader.clearSpokenPhraseLog()
      for (let i = 0; i < limit; i++) {
        await reader.next()
        if ((await reader.lastSpokenPhrase()) === last) break
      }
      return reader.spokenPhraseLog()
    },
    { last, limit },
  )
}
