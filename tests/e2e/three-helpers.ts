// Shared by the 3D end-to-end tests: the showcase page's content, pixel read-back from
// screenshots (what the visitor sees, canvas composited over the page), and WebGL context counting.
import { readFileSync } from 'node:fs'
import { expect, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'

type Slice = { slice_type: string; variation: string; primary: Record<string, unknown> }

/** The showcase page's slices, as committed in content/. */
export function showcase(lang = 'en-us'): {
  procedural: Record<string, string>
  model: Record<string, string>
  viewer: Record<string, string>
} {
  const doc = JSON.parse(readFileSync(`content/documents/page/showcase/${lang}.json`, 'utf8'))
  const slices = doc.data.slices as Slice[]
  const find = (type: string, variation: string) =>
    slices.find((s) => s.slice_type === type && s.variation === variation)!.primary as Record<
      string,
      string
    >
  return {
    procedural: find('hero', 'default'),
    model: find('hero', 'model'),
    viewer: find('model_viewer', 'default'),
  }
}

/** Counts the distinct WebGL contexts the page creates, in `window.__webglContexts`. */
export const COUNT_WEBGL_CONTEXTS = () => {
  const contexts = new Set<unknown>()
  Object.defineProperty(window, '__webglContexts', { get: () => contexts.size })
  const original = HTMLCanvasElement.prototype.getContext
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    type: string,
    ...rest: unknown[]
  ) {
    const context = (original as (...args: unknown[]) => unknown).call(this, type, ...rest)
    if (context && /webgl/.test(type)) contexts.add(context)
    return context
  } as typeof original
}

/** The slot (state, stage, poster) of the n-th 3D slot on the page. */
export function slot(page: Page, index: number) {
  const root = page.locator('[data-3d-state]').nth(index)
  return { root, stage: root.locator('[data-3d-stage]'), poster: root.locator('img') }
}

/** Waits for two animation frames, so the shared canvas has redrawn after a scroll. */
export async function frames(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  )
}

/** Scrolls a slot into view and waits until its scene is live and the poster has faded. */
export async function waitLive(page: Page, index: number) {
  const s = slot(page, index)
  await s.stage.scrollIntoViewIfNeeded()
  await expect(s.root).toHaveAttribute('data-3d-state', 'live', { timeout: 30_000 })
  await expect(s.root.locator('[data-3d-stage] > div').first()).toHaveCSS('opacity', '0')
  await frames(page)
}

export type Pixels = { data: Buffer; width: number; height: number }

/** What the visitor sees in an element's box, as raw RGB pixels. */
export async function pixels(locator: Locator): Promise<Pixels> {
  const png = await locator.screenshot({ animations: 'allow' })
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** The share of pixels that differ from the top-left corner's colour (the stage's background). */
export function drawnShare({ data, width, height }: Pixels): number {
  const [r, g, b] = [data[0], data[1], data[2]]
  let drawn = 0
  for (let i = 0; i < width * height * 3; i += 3) {
    if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) > 30) drawn++
  }
  return drawn / (width * height)
}

/** The share of pixels that differ between two same-sized read-backs. */
export function changedShare(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height])
  let changed = 0
  for (let i = 0; i < a.data.length; i += 3) {
    const d =
      Math.abs(a.data[i] - b.data[i]) +
      Math.abs(a.data[i + 1] - b.data[i + 1]) +
      Math.abs(a.data[i + 2] - b.data[i + 2])
    if (d > 30) changed++
  }
  return changed / (a.width * a.height)
}
