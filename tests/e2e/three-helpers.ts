// Shared by the 3D end-to-end tests: the showcase page's content, pixel read-back from
// screenshots (what the visitor sees, canvas composited over the page), and WebGL context counting.
import { readFileSync } from 'node:fs'
import { expect, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { showcaseHotspots } from './support/content'

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

/**
 * The hotspots' list under the viewer holds each label and detail, in order, visible on the page
 * (without 3D, before it, or when the model failed).
 */
export async function expectHotspotList(page: Page, lang = 'en-us'): Promise<void> {
  const { heading, items } = showcaseHotspots(lang)
  const list = page.getByRole('region', { name: heading })
  await expect(list).toBeVisible()
  await expect(list.getByRole('heading', { name: heading })).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveText(
    items.map(([label, detail]) => label + detail),
  )
}

/** Where the 3D renders: in a worker (the default) or on the main thread (`?debug3d=main`). */
export type RenderPath = 'worker' | 'main'
/** Both paths: each 3D test runs in each. */
export const RENDER_PATHS: RenderPath[] = ['worker', 'main']

/** A page's URL with the debug hook on, the given `?debug3d` flags, and `main` on that path. */
export function url3d(pathname: string, path: RenderPath, ...flags: string[]): string {
  return `${pathname}?debug3d=${(path === 'main' ? [...flags, 'main'] : flags).join(',')}`
}

type Hook = { path: string; frames: number; loseContext: () => void; restoreContext: () => void }
/** The renderer's debug hook (`?debug3d`), which the page keeps on `window.__facet3d`. */
export const hook = () => (window as unknown as { __facet3d: Hook }).__facet3d

/** Asserts the scenes are drawn on `path`: a worker's canvas, or the main thread's. */
export async function expectRenderPath(page: Page, path: RenderPath) {
  expect(
    await page.evaluate(() => (window as unknown as { __facet3d?: Hook }).__facet3d?.path),
  ).toBe(path)
}

/**
 * Counts the distinct WebGL contexts the page creates, in `window.__webglContexts`: those made on
 * the main thread, and one for each canvas handed to a worker (the worker makes its context).
 * The bridge's capability probe (a 1 × 1 canvas whose context is lost at once) is not counted,
 * unless it is still alive.
 */
export const COUNT_WEBGL_CONTEXTS = () => {
  const contexts = new Set<unknown>()
  const probe = (c: unknown) =>
    c instanceof WebGLRenderingContext || c instanceof WebGL2RenderingContext
      ? c.isContextLost() && c.canvas.width === 1 && c.canvas.height === 1
      : false
  Object.defineProperty(window, '__webglContexts', {
    get: () => [...contexts].filter((c) => !probe(c)).length,
  })
  const transfer = HTMLCanvasElement.prototype.transferControlToOffscreen
  HTMLCanvasElement.prototype.transferControlToOffscreen = function (this: HTMLCanvasElement) {
    contexts.add(this)
    return transfer.call(this)
  }
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

/**
 * Waits for two animation frames, so the page has sent the stages' rectangles after a scroll,
 * then (with the debug hook) until the renderer, in its worker or not, has drawn with them.
 */
export async function frames(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  )
  await page.waitForFunction(() => {
    const hook = (window as unknown as { __facet3d?: { seq: number; sent: number } }).__facet3d
    return !hook || hook.seq >= hook.sent
  })
}

/**
 * Engages, scrolls a slot into view and waits until its scene is live and the poster has faded,
 * for up to `timeout` ms (30 s; the 34 MB scan of the model corpus, parsed in full from its
 * original bytes under SwiftShader on 2 shared cores, is given more).
 */
export async function waitLive(page: Page, index: number, timeout = 30_000) {
  const s = slot(page, index)
  // The visitor engages (a 1 px scroll, heard as the page hydrates or found done once it has:
  // `engagedAlready`), as a reader does: a slot already on screen, which no scroll reaches, would
  // otherwise wait out the page's 5 s quiet window before its 3D starts (when-to-load.ts).
  await page.evaluate(() => {
    if (window.scrollY === 0) window.scrollBy(0, 1)
  })
  await s.stage.scrollIntoViewIfNeeded()
  await expect(s.root).toHaveAttribute('data-3d-state', 'live', { timeout })
  await expect(s.root.locator('[data-3d-stage] > div').first()).toHaveCSS('opacity', '0')
  await frames(page)
  // With the debug hook on, the scene must have been drawn on the path the URL asks for.
  const flags = new URL(page.url()).searchParams.get('debug3d')
  if (flags !== null)
    await expectRenderPath(page, flags.split(',').includes('main') ? 'main' : 'worker')
}

export type Pixels = { data: Buffer; width: number; height: number }

/** What the visitor sees in an element's box, as raw RGB pixels. */
export async function pixels(locator: Locator): Promise<Pixels> {
  // A screenshot scrolls its element into view first; let the canvas catch up with that scroll.
  await locator.scrollIntoViewIfNeeded()
  await frames(locator.page())
  const png = await locator.screenshot({ animations: 'allow' })
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
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

/**
 * The share of an element's pixels that the 3D canvas draws: what the visitor sees in its box
 * (without scrolling, which would make the renderer draw again), against the same box with the
 * canvas hidden. A share near 0 means the canvas shows nothing there. (The stage's corner is not
 * a reference for the background where the stage has rounded corners.)
 */
export async function canvasShare(page: Page, locator: Locator): Promise<number> {
  const box = await locator.boundingBox()
  const viewport = page.viewportSize()!
  expect(box, 'the element has a box').not.toBeNull()
  const left = Math.max(0, box!.x)
  const top = Math.max(0, box!.y)
  const clip = {
    x: left,
    y: top,
    width: Math.min(box!.x + box!.width, viewport.width) - left,
    height: Math.min(box!.y + box!.height, viewport.height) - top,
  }
  expect(clip.width * clip.height, 'the element is on screen').toBeGreaterThan(100 * 100)
  const shot = async () => {
    const png = await page.screenshot({ clip, animations: 'allow' })
    const { data, info } = await sharp(png)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  }
  const seen = await shot()
  const canvases = page.locator('canvas')
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
  const bare = await shot()
  await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = '')))
  return changedShare(seen, bare)
}

/**
 * `canvasShare` of an element once it is in view and the renderer has drawn with its place
 * there: near 0 when the slot shows only its background (or the poster, without the scene).
 */
export async function sceneShare(page: Page, locator: Locator): Promise<number> {
  await locator.scrollIntoViewIfNeeded()
  await frames(page)
  return canvasShare(page, locator)
}
