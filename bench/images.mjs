// Image bytes a phone moves on a page: Chromium with Lighthouse's mobile screen (412 × 823 CSS
// px at a device pixel ratio of 1.75), the page loaded, then 3 s more (lazy images near the
// viewport arrive in that time), every image response's transfer (headers and encoded body).
// Used by `npm run bench` (DESIGN.md's image budget); alone, it compares two servers in one run:
//   node bench/images.mjs --origin http://127.0.0.1:3640 --before http://127.0.0.1:3641 /en-us /en-us/work/x
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'

/** Lighthouse's default mobile screen (Moto G Power). */
export const PHONE = { width: 412, height: 823, deviceScaleFactor: 1.75 }
/** How long after the load event images are still counted. */
export const SETTLE_MS = 3000

/**
 * Loads each path on `origin` in a fresh phone-sized context and sums its image transfers.
 * @returns one entry per path: total bytes, and each image's URL, type and bytes.
 */
export async function measureImageBytes(origin, paths, { chromePath } = {}) {
  const browser = await chromium.launch({
    executablePath: chromePath || process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader'],
  })
  try {
    const out = []
    for (const pagePath of paths) {
      const context = await browser.newContext({
        viewport: { width: PHONE.width, height: PHONE.height },
        deviceScaleFactor: PHONE.deviceScaleFactor,
        isMobile: true,
        hasTouch: true,
      })
      const page = await context.newPage()
      const pending = []
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'image') return
        pending.push(
          response
            .request()
            .sizes()
            .then((sizes) => ({
              url: response.url().replace(origin, ''),
              type: response.headers()['content-type'] ?? '',
              bytes: sizes.responseBodySize + sizes.responseHeadersSize,
            }))
            .catch(() => null),
        )
      })
      await page.goto(`${origin}${pagePath}`, { waitUntil: 'load' })
      await page.waitForTimeout(SETTLE_MS)
      const images = (await Promise.all(pending)).filter(Boolean)
      out.push({
        path: pagePath,
        bytes: images.reduce((sum, image) => sum + image.bytes, 0),
        asStoredBytes: await asStored(origin, images),
        images,
      })
      await context.close()
    }
    return out
  } finally {
    await browser.close()
  }
}

/**
 * What the same images would weigh served as stored (the originals, no parameters): the bytes an
 * image service saves. Each image with a query is fetched again without it.
 */
async function asStored(origin, images) {
  let total = 0
  for (const image of images) {
    const [bare, query] = image.url.split('?')
    if (!query) {
      total += image.bytes
      continue
    }
    const response = await fetch(`${origin}${bare}`)
    total += (await response.arrayBuffer()).byteLength
  }
  return total
}

const isMain = import.meta.url === `file://${process.argv[1]}`
if (isMain) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { origin: { type: 'string' }, before: { type: 'string' } },
  })
  const paths = positionals.length ? positionals : ['/en-us']
  const after = await measureImageBytes(values.origin, paths)
  const before = values.before ? await measureImageBytes(values.before, paths) : null
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`
  for (const [i, page] of after.entries()) {
    const was = before?.[i]
    console.log(
      `${page.path}: ${kb(page.bytes)} in ${page.images.length} images, ${kb(page.asStoredBytes)} as stored` +
        (was ? ` (before: ${kb(was.bytes)} in ${was.images.length} images)` : ''),
    )
    for (const image of page.images) console.log(`  ${kb(image.bytes)} ${image.type} ${image.url}`)
    if (was)
      for (const image of was.images)
        console.log(`  before ${kb(image.bytes)} ${image.type} ${image.url}`)
  }
}
