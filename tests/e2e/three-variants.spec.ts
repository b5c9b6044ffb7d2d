// Models as the device needs them (issue #33): the renderer asks for its tier's variant of a model
// of the site's own origin (`?tier=`), `?debug3d` reports what it fetched and what the file holds,
// and the variants still look like the model: the original and each tier's variant of a 4K scan,
// drawn from one camera in the showcase's viewer, compared by SSIM.
//
// Until the media service makes variants, a `?tier=` request is answered with the original: these
// tests pass then too (the look test trivially), and hold the variants to the same bounds after.
import { expect, test, type Page } from '@playwright/test'
import type { ModelInfo } from '@/three/protocol'
import { modelCorpus } from '../fixtures/model-corpus'
import { inspectModel } from '../../services/content-api/models/inspect'
import { serveModel, unserveModels } from '../fixtures/served-models'
import { changedShare, frames, pixels, slot, waitLive, type Pixels } from './three-helpers'
import { meanDifference, modelMask, ssim } from './support/ssim'

const VIEWER = 2
const LAMP = (url: URL) => url.pathname.endsWith('/models/lamp.glb')
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
}

type Hook = { tier: 'low' | 'high'; models: Record<string, ModelInfo> }
const hookOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __facet3d: Hook }).__facet3d)

/** The viewer's model as the renderer reports it (`?debug3d`). */
async function viewerModel(page: Page): Promise<ModelInfo> {
  await expect
    .poll(async () => Object.values((await hookOf(page)).models).some((m) => LAMP(new URL(m.url))))
    .toBe(true)
  return Object.values((await hookOf(page)).models).find((m) => LAMP(new URL(m.url)))!
}

/** The URLs of the viewer's model the page requested. */
function lampRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request) => {
    if (LAMP(new URL(request.url()))) urls.push(request.url())
  })
  return urls
}

const sizes = (textures: { width: number; height: number }[]) =>
  textures.map(({ width, height }) => `${width}×${height}`).sort()

test.describe('model variants', () => {
  test("on a phone the viewer fetches the low tier's variant, and ?debug3d reports what it holds", async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext(PHONE)
    const page = await context.newPage()
    const requested = lampRequests(page)
    await page.goto('/en-us/showcase?debug3d')
    await waitLive(page, VIEWER)
    // Headless Chromium draws with SwiftShader, which the GPU probe measures as the low tier.
    expect((await hookOf(page)).tier).toBe('low')
    expect(requested).toHaveLength(1)
    expect(new URL(requested[0]!).searchParams.getAll('tier')).toEqual(['low'])
    // The rest of the page's URL (its version) is kept.
    expect(new URL(requested[0]!).searchParams.get('v')).toBeTruthy()

    const info = await viewerModel(page)
    expect(info.url).toBe(requested[0])
    // What the renderer reports is what the site served for that URL.
    const served = await inspectModel(await (await request.get(info.url)).body())
    expect(info.bytes).toBe(served.bytes)
    expect(info.triangles).toBe(served.triangles)
    expect(info.triangles).toBeGreaterThan(0)
    expect(sizes(info.textures)).toEqual(sizes(served.textures))
    await context.close()
  })

  test('?debug3d=original fetches the file as uploaded', async ({ browser, request }) => {
    const context = await browser.newContext(PHONE)
    const page = await context.newPage()
    const requested = lampRequests(page)
    await page.goto('/en-us/showcase?debug3d=original')
    await waitLive(page, VIEWER)
    expect(requested).toHaveLength(1)
    expect(new URL(requested[0]!).searchParams.has('tier')).toBe(false)
    const info = await viewerModel(page)
    expect(info.url).toBe(requested[0])
    const original = await inspectModel(await (await request.get(info.url)).body())
    expect([info.bytes, info.triangles]).toEqual([original.bytes, original.triangles])
    await context.close()
  })

  test('each variant of a 4K scan looks like the original from the same camera (SSIM)', async ({
    browser,
    request,
  }) => {
    test.slow()
    const heavy = (await modelCorpus()).find((model) => model.name === 'heavy')!
    const served = serveModel(heavy.file, 'look-heavy')
    try {
      // The variants made before the pages ask (as the build and the webhook do), so each page
      // meets a warm one; a full render queue answers 503 with Retry-After, asked again.
      for (const tier of ['low', 'high'])
        await expect
          .poll(
            async () => (await request.get(`${served}?tier=${tier}`, { timeout: 60_000 })).status(),
            {
              timeout: 120_000,
              intervals: [2_000],
            },
          )
          .toBe(200)

      const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
      // The viewer's model is the scan: the same URL, query and all, on the scan's path.
      await context.route(LAMP, (route) => {
        const url = new URL(route.request().url())
        return route.continue({ url: new URL(served + url.search, url).href })
      })
      const renders: Record<string, { seen: Pixels; info: ModelInfo }> = {}
      let turned: Pixels | undefined
      let bare: Pixels | undefined
      for (const flag of ['original', 'tier-high', 'tier-low']) {
        const page = await context.newPage()
        await page.goto(`/en-us/showcase?debug3d=${flag}`)
        await waitLive(page, VIEWER)
        const stage = slot(page, VIEWER).stage
        renders[flag] = { seen: await pixels(stage), info: await viewerModel(page) }
        if (flag === 'original') {
          // The stage without the canvas: where the model is drawn, the renders differ from it.
          const canvases = page.locator('canvas')
          await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = 'hidden')))
          bare = await pixels(stage)
          await canvases.evaluateAll((all) => all.forEach((c) => (c.style.visibility = '')))
          // The same model turned by one arrow key on a view button (15°): a different view the
          // metric must see.
          await slot(page, VIEWER).root.locator('[data-3d-view="turnRight"]').focus()
          await page.keyboard.press('ArrowRight')
          await frames(page)
          // Drawn again once the pixels move (a frame of the scan takes SwiftShader a while).
          const before = renders[flag].seen
          await expect
            .poll(async () => changedShare(before, (turned = await pixels(stage))), {
              timeout: 20_000,
            })
            .toBeGreaterThan(0.01)
        }
        await page.close()
      }
      await context.close()

      const original = renders.original!
      expect(new URL(original.info.url).searchParams.has('tier')).toBe(false)
      const mask = modelMask(bare!, [
        original.seen,
        renders['tier-high']!.seen,
        renders['tier-low']!.seen,
      ])
      const floor = ssim(original.seen, turned!, mask)
      for (const [flag, bound] of [
        ['tier-high', SSIM_HIGH],
        ['tier-low', SSIM_LOW],
      ] as const) {
        const { seen, info } = renders[flag]!
        expect(new URL(info.url).searchParams.get('tier')).toBe(flag.slice('tier-'.length))
        const score = ssim(original.seen, seen, mask)
        test.info().annotations.push({
          type: flag,
          description: `SSIM ${score.toFixed(4)} (bound ${bound}; the original turned 15°: ${floor.toFixed(4)}), mean |Δ| ${meanDifference(original.seen, seen, mask).toFixed(2)} grey levels; ${info.bytes} bytes, ${info.triangles} triangles, textures ${sizes(info.textures).join(' ')}`,
        })
        expect(score, `${flag}: SSIM against the original`).toBeGreaterThanOrEqual(bound)
      }
      // The bound tells views apart: a turn of 15° falls below the lowest.
      expect(floor, 'SSIM of the original against itself turned 15°').toBeLessThan(SSIM_LOW)
    } finally {
      unserveModels()
    }
  })
})

/**
 * The bounds, on the mean SSIM (Wang et al. 2004, on greyscale, 8 × 8 windows every 4 px, the
 * paper's constants) over the windows where a render shows the model. SSIM rather than a per-pixel
 * bound: a variant's mesh is simplified within an error bound, which moves a silhouette by a pixel
 * here and there, and its textures are resized and re-encoded, which softens them; both leave the
 * structure (the checker's edges, the shading, the outline) in place, which SSIM scores and a
 * per-pixel difference punishes. The high tier keeps the mesh and halves the textures at most;
 * the low tier also simplifies the mesh and takes them to 1024 px. Measured here with variants made
 * by glTF-Transform as the issue describes (WebP textures at 2048 and 1024 px; for the low tier the
 * mesh simplified to 20 % with meshoptimizer, error 0.001): 0.996 and 0.989, against 0.36 for the
 * original turned 15°. The bounds leave room for lossier encodings (KTX2 ETC1S) and stay far
 * above a changed view.
 */
const SSIM_HIGH = 0.95
const SSIM_LOW = 0.9
