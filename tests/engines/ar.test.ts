// "View in your room" on an iPhone, in WebKit (Safari's engine): the showcase's viewer offers AR
// Quick Look through the markup Safari requires, and the USDZ it links to is a package a USD
// reader we did not write reads, with the triangles of the GLB variant it was made from. WebKitGTK
// does not say it opens `rel="ar"` (only Safari on iOS does), so it is told it is Chrome on an
// iPhone, which is WebKit too and opens AR Quick Look.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { inspectModel } from '../../services/content-api/models/inspect'
import { readUsd } from '../support/tinyusdz'
import { localFiles } from '../support/zip'
import { documentFile, urlOf } from '../e2e/support/content'
import { waitFor, type Engine } from './support/engine'
import { launchWebKit } from './support/webkit'

const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1'

describe('WebKit as an iPhone', () => {
  let engine: Engine
  beforeAll(async () => {
    engine = await launchWebKit(inject('origin'), {
      display: inject('display'),
      userAgent: IPHONE_CHROME,
    })
  })
  afterAll(async () => {
    await engine?.close()
  })

  it('gets “View in your room” as AR Quick Look’s link, to a USDZ TinyUSDZ reads with the variant’s triangles', async () => {
    const showcase = documentFile('page', 'showcase', 'en-us')
    const label = (showcase.data.slices!.find((s) => s.slice_type === 'model_viewer')!.primary
      .ar_label ?? '') as string
    await engine.goto(urlOf(showcase)!)
    expect(await engine.evaluate(() => navigator.userAgent)).toBe(IPHONE_CHROME)
    const link = await waitFor(
      engine,
      'the AR Quick Look link',
      () => {
        const a = document.querySelector<HTMLAnchorElement>('a[data-ar-link]')
        return a
          ? {
              rel: a.rel,
              href: a.href,
              text: a.textContent,
              first: a.firstElementChild?.tagName,
            }
          : null
      },
      [],
    )
    // The markup Safari requires: `<a rel="ar">` whose first child is an image.
    expect(link).toEqual({ rel: 'ar', href: link.href, text: label, first: 'IMG' })
    const href = new URL(link.href)
    expect(href.origin).toBe(engine.origin)
    expect(href.searchParams.get('format')).toBe('usdz')
    expect(href.hash).toBe('#allowsContentScaling=0')

    // The package, fetched as AR Quick Look fetches it.
    const response = await fetch(href)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('model/vnd.usdz+zip')
    const usdz = new Uint8Array(await response.arrayBuffer())
    const files = localFiles(usdz)
    expect(files[0]?.name).toBe('model.usda')
    for (const file of files) {
      expect(file.method, file.name).toBe(0)
      expect(file.dataOffset % 64, file.name).toBe(0)
    }
    // The same triangles as the `ar` GLB it was made from.
    const glbUrl = new URL(href)
    glbUrl.searchParams.delete('format')
    glbUrl.hash = ''
    const glb = await inspectModel(new Uint8Array(await (await fetch(glbUrl)).arrayBuffer()))
    const usd = await readUsd(usdz, 'showcase.usdz')
    let triangles = 0
    for (let i = 0; i < usd.numMeshes(); i++)
      for (const count of Array.from(usd.getMesh(i).faceVertexCounts)) triangles += count - 2
    expect(triangles).toBe(glb.triangles)
    expect(await engine.problems()).toEqual([])
  })
})
