// `npm run slices:screenshots [-- --url http://localhost:3000]`: a screenshot of every slice
// variation, taken from the site's slice simulator in Chromium, written where Slice Machine
// looks for it: src/slices/<Name>/screenshot-<variation>.png (@slicemachine/manager's
// readSliceScreenshot reads the asset `screenshot-${variationID}.png` of the slice).
//
// The site must be running (`npm run dev` or `npm start`) at --url (default
// http://localhost:3000). Each variation's mock (mocks.json, rendered as Slice Machine renders it
// for its simulator) is shown in /slice-simulator, framed by a page of the site's own origin as
// Slice Machine frames it; the slice's element is captured at a desktop width once its images
// have loaded, then reduced to 800 px wide (a palette PNG) to keep the repository small.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import sharp from 'sharp'
import { apiSliceMocksOf, simulatorPath, slicesWithMocks } from './api-mocks'

const { values } = parseArgs({
  options: { url: { type: 'string', default: process.env.SITE_URL || 'http://localhost:3000' } },
})
const site = values.url!.replace(/\/+$/, '')
const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium'

async function main() {
  try {
    await fetch(`${site}/robots.txt`)
  } catch {
    throw new Error(
      `No site answers at ${site}: start it (npm run dev or npm start), or pass --url.`,
    )
  }
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--disable-gpu'],
  })
  let count = 0
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await page.goto(`${site}/robots.txt`)
    for (const name of slicesWithMocks()) {
      for (const mock of apiSliceMocksOf(name)) {
        await page.setViewportSize({ width: 1200, height: 900 })
        await page.setContent(
          `<iframe title="simulator" src="${site}${simulatorPath([mock])}" style="border:0;width:1200px;height:900px"></iframe>`,
        )
        const frame = page.frameLocator('iframe')
        const slice = frame.locator(
          `[data-slice-type="${mock.slice_type}"][data-slice-variation="${mock.variation}"]`,
        )
        await slice.waitFor({ state: 'visible', timeout: 60_000 })
        // A slice taller than the frame (the model viewer with its hotspots' list) is painted
        // whole only when the frame, and the window, are as tall as its document.
        const height = await slice.evaluate((element) =>
          Math.ceil(element.getBoundingClientRect().bottom + window.scrollY),
        )
        if (height > 900) {
          await page.setViewportSize({ width: 1200, height })
          await page.locator('iframe').evaluate((frame, h) => {
            ;(frame as HTMLIFrameElement).style.height = `${h}px`
          }, height)
        }
        // Every image shown in the slice loaded (a 3D slot shows its poster until its scene is
        // drawn). Not those hidden, which a lazy image never loads: a story's later stills.
        await slice.evaluate(async (element) => {
          await document.fonts.ready
          const images = [...element.querySelectorAll('img')].filter((img) => img.checkVisibility())
          await Promise.all(
            images.map((img) =>
              img.complete
                ? null
                : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
            ),
          )
          await new Promise((resolve) =>
            requestAnimationFrame(() => requestAnimationFrame(resolve)),
          )
        })
        const shot = await slice.screenshot({ animations: 'disabled' })
        const png = await sharp(shot)
          .resize({ width: 800, withoutEnlargement: true })
          .png({ palette: true, compressionLevel: 9 })
          .toBuffer()
        const file = path.join('src', 'slices', name, `screenshot-${mock.variation}.png`)
        writeFileSync(file, png)
        console.log(`${file} (${Math.round(png.length / 1024)} KB)`)
        count += 1
      }
    }
  } finally {
    await browser.close()
  }
  console.log(`slices:screenshots: ${count} screenshots from ${site}`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
