import * as prismic from '@prismicio/client'
import {
  devices,
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test'
import { gltfJson } from '../../services/content-api/models-check'
import { localFiles } from '../support/zip'
import { axeViolations } from './support/axe'
import { documentFile, urlOf } from './support/content'
import sharp from 'sharp'
import { changedShare, showcase, waitLive, type Pixels } from './three-helpers'
import { emulateArPhone, lookDown, recordViolations, tapRoom, violations } from './support/webxr'
import { announced, forget, startScreenReader } from './support/screen-reader'
import { arWords } from '../../src/three/ar/words'
import { modelIO } from '../../services/content-api/models/io'
import { getBounds } from '@gltf-transform/core'

// "View in your room" (issue 42) as a visitor's phone gets it: the showcase's model viewer turns
// AR on in its slice; an Android phone gets a link that opens Scene Viewer on the model's AR
// variant, which the site serves; a desktop or an iPhone gets nothing, and an editor previewing
// there gets one line saying why. The link moves nothing on the page.

const PHONE = devices['Pixel 7']
// Safari on an iPhone: Chromium here does not say it opens `rel="ar"`, as an in-app browser
// would not, so it stands for a browser that cannot open AR Quick Look.
const IPHONE = devices['iPhone 15']
// Chrome on an iPhone, Safari's engine under another name: it opens AR Quick Look.
const IPHONE_CHROME = {
  ...IPHONE,
  userAgent: IPHONE.userAgent.replace(/Version\/[\d.]+/, 'CriOS/131.0.6778.73'),
}
const VIEWER_LINK = '[data-ar-link]'
const NOTE = '[data-ar-note]'

/** A page in a fresh context made like `device` (its user agent, screen, touch). */
async function open(browser: Browser, device: (typeof devices)[string], url: string) {
  const context = await browser.newContext({ ...device, reducedMotion: 'reduce' })
  const page = await context.newPage()
  await page.goto(url)
  return { page, close: () => context.close() }
}

/** The intent URL's https target and its extras. */
function parseIntent(href: string) {
  const match = /^intent:\/\/([^#]+)#Intent;(.*);end;$/.exec(href)
  expect(match, href).not.toBeNull()
  const extras = Object.fromEntries(match![2]!.split(';').map((pair) => pair.split(/=(.*)/s, 2)))
  return { target: new URL(`https://${match![1]}`), extras }
}

/**
 * Waits until React has hydrated the viewer's stage (it keeps its fiber on each element it
 * hydrates) and two frames have passed, so the AR link's decision has rendered: a check that
 * nothing shows is then a check of that decision, not of a page not yet hydrated.
 */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const stage = document.querySelector('.slice-model-viewer .model-stage')
    return !!stage && Object.keys(stage).some((key) => key.startsWith('__reactFiber'))
  })
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  )
}

/** Opens a preview session in `page`'s context, as an editor does (as preview.spec.ts opens one). */
async function previewSession(page: Page, baseURL: string | undefined) {
  const client = prismic.createClient<prismic.PrismicDocument>(`${baseURL}/local/prismic/api/v2`)
  const { id } = await client.getByUID('page', 'about', { lang: 'en-us' })
  await page.goto(
    `/local/prismic/previews/winter-launch?websitePreviewId=winter-launch&documentId=${id}`,
  )
  expect((await page.context().cookies()).some((c) => c.name === prismic.cookie.preview)).toBe(true)
}

/**
 * A fresh context made like a Pixel whose browser has WebXR AR (IWER, support/webxr.ts), recording
 * policy violations. At 1 CSS pixel per device pixel: the emulated room and the session draw every
 * frame in software here, and screenshots compare fewer pixels.
 */
async function xrPhone(browser: Browser) {
  const context = await browser.newContext({
    ...PHONE,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  })
  await emulateArPhone(context, PHONE.userAgent)
  await recordViolations(context)
  return context
}

/** What the visitor sees on the screen, as raw RGB pixels. */
/** Waits for the page's model viewer (the slot in its slice) to go live; its slot's index. */
async function waitViewerLive(page: Page): Promise<number> {
  const index = await page
    .locator('[data-3d-state]')
    .evaluateAll((slots) => slots.findIndex((s) => s.closest('.slice-model-viewer')))
  await waitLive(page, index)
  return index
}

async function screen(page: Page): Promise<Pixels> {
  const png = await page.screenshot({ animations: 'allow' })
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** Where the caption under the showcase's viewer sits, in CSS pixels from the page's top. */
const captionTop = (page: Page) =>
  page
    .locator('.slice-model-viewer figcaption')
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY)

test('an Android phone gets “View in your room”, which opens Scene Viewer on the AR variant the site serves', async ({
  browser,
  baseURL,
}) => {
  for (const lang of ['en-us', 'fr-fr']) {
    const content = showcase(lang)
    const url = urlOf(documentFile('page', 'showcase', lang))!
    const { page, close } = await open(browser, PHONE, url)
    const link = page.locator(VIEWER_LINK)
    await expect(link).toHaveCount(1)
    await expect(link).toBeVisible()
    await expect(link).toHaveText(content.viewer.ar_label!)
    await expect(page.getByRole('link', { name: content.viewer.ar_label! })).toBeVisible()

    const { target, extras } = parseIntent((await link.getAttribute('href'))!)
    expect(target.origin + target.pathname).toBe('https://arvr.google.com/scene-viewer/1.2')
    expect(target.searchParams.get('mode')).toBe('ar_preferred')
    expect(target.searchParams.get('title')).toBe(content.viewer.heading)
    // The slice keeps the true size and the floor.
    expect(target.searchParams.get('resizable')).toBe('false')
    expect(target.searchParams.has('enable_vertical_placement')).toBe(false)
    expect(extras.package).toBe('com.google.ar.core')

    // Back to the page, at the viewer.
    const back = new URL(decodeURIComponent(extras['S.browser_fallback_url']!))
    expect(back.origin + back.pathname).toBe(`${baseURL}${url}`)
    const figure = page.locator(`figure[id="${back.hash.slice(1)}"]`)
    await expect(figure).toHaveCount(1)
    await expect(figure.locator(VIEWER_LINK)).toHaveCount(1)

    // The file Scene Viewer fetches: absolute, on the site, plain glTF it can read.
    const file = new URL(target.searchParams.get('file')!)
    expect(file.origin).toBe(baseURL)
    expect(file.searchParams.get('tier')).toBe('ar')
    const response = await page.request.get(file.href)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('model/gltf-binary')
    const json = gltfJson(new Uint8Array(await response.body())) as {
      extensionsUsed?: string[]
      meshes?: unknown[]
    }
    expect(json.meshes?.length).toBeGreaterThan(0)
    for (const name of [
      'EXT_meshopt_compression',
      'KHR_draco_mesh_compression',
      'EXT_texture_webp',
    ])
      expect(json.extensionsUsed ?? []).not.toContain(name)

    if (lang === 'en-us') {
      // The link arrives after hydration over the viewer's corner: the caption is where it is
      // on a page that shows no link (the same screen, a desktop browser's user agent).
      const desktop = await open(
        browser,
        { ...PHONE, userAgent: devices['Desktop Chrome'].userAgent },
        url,
      )
      await expect(desktop.page.locator(VIEWER_LINK)).toHaveCount(0)
      expect(await captionTop(page)).toBe(await captionTop(desktop.page))
      await desktop.close()
      expect(await axeViolations(page)).toEqual([])
    }
    await close()
  }
})

test('an iPhone gets “View in your room” through AR Quick Look, on a USDZ the site made', async ({
  browser,
  baseURL,
}) => {
  const content = showcase('en-us')
  const url = urlOf(documentFile('page', 'showcase', 'en-us'))!
  const { page, close } = await open(browser, IPHONE_CHROME, url)
  const link = page.locator(VIEWER_LINK)
  await expect(link).toBeVisible()
  await expect(link).toHaveText(content.viewer.ar_label!)
  // The markup Safari requires: `<a rel="ar">` whose first child is an image.
  await expect(link).toHaveAttribute('rel', 'ar')
  expect(await link.evaluate((a) => a.firstElementChild?.tagName)).toBe('IMG')

  const href = new URL((await link.getAttribute('href'))!)
  expect(href.origin).toBe(baseURL)
  expect(href.searchParams.get('tier')).toBe('ar')
  expect(href.searchParams.get('format')).toBe('usdz')
  expect(href.searchParams.has('placement')).toBe(false)
  // The slice keeps the true size: Apple's fragment that turns scaling off.
  expect(href.hash).toBe('#allowsContentScaling=0')

  const response = await page.request.get(href.href)
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('model/vnd.usdz+zip')
  const files = localFiles(new Uint8Array(await response.body()))
  expect(files[0]?.name).toBe('model.usda')
  for (const file of files) expect(file.dataOffset % 64, file.name).toBe(0)
  expect(await axeViolations(page)).toEqual([])
  await close()
})

test('an iPhone gets no AR link for a model the server cannot make into USDZ; a preview says why', async ({
  browser,
  baseURL,
}) => {
  const url = urlOf(documentFile('page', 'showcase', 'en-us'))!
  const reason = 'cannot be made into USDZ: a texture is image/ktx2'
  const refuse = (context: BrowserContext) =>
    context.route(
      (u) => u.searchParams.get('format') === 'usdz',
      (route) => route.fulfill({ status: 422, body: reason, contentType: 'text/plain' }),
    )
  const visitor = await browser.newContext({ ...IPHONE_CHROME })
  await refuse(visitor)
  const page = await visitor.newPage()
  const asked = page.waitForResponse((r) => new URL(r.url()).searchParams.get('format') === 'usdz')
  await page.goto(url)
  expect((await asked).status()).toBe(422)
  await hydrated(page)
  await expect(page.locator(`${VIEWER_LINK}, ${NOTE}`)).toHaveCount(0)
  await visitor.close()

  const editor = await browser.newContext({ ...IPHONE_CHROME })
  await refuse(editor)
  const preview = await editor.newPage()
  await previewSession(preview, baseURL)
  await preview.goto(url)
  await expect(preview.locator(NOTE)).toHaveText(`AR Quick Look cannot open this model: ${reason}`)
  await expect(preview.locator(VIEWER_LINK)).toHaveCount(0)
  await editor.close()
})

test('a viewer whose slice does not turn AR on, as before the fields existed, offers no AR on the phone', async ({
  browser,
}) => {
  const about = documentFile('page', 'about', 'en-us')
  const slice = about.data.slices!.find((s) => s.slice_type === 'model_viewer')!
  expect(slice.primary.ar ?? false).toBe(false)
  const { page, close } = await open(browser, PHONE, urlOf(about)!)
  await expect(page.locator('.slice-model-viewer')).toHaveCount(1)
  await hydrated(page)
  await expect(page.locator(`${VIEWER_LINK}, ${NOTE}`)).toHaveCount(0)
  await close()
})

test('where AR cannot open, a visitor sees nothing of it and an editor in a preview sees why', async ({
  browser,
  baseURL,
}) => {
  const url = urlOf(documentFile('page', 'showcase', 'en-us'))!
  // A visitor on a desktop and in an iPhone browser that does not open AR Quick Look: no link, no
  // note.
  for (const device of [devices['Desktop Chrome'], IPHONE]) {
    const { page, close } = await open(browser, device, url)
    await expect(page.locator('.slice-model-viewer figure')).toBeVisible()
    await hydrated(page)
    await expect(page.locator(`${VIEWER_LINK}, ${NOTE}`)).toHaveCount(0)
    await close()
  }
  // An editor, in a preview session, on a desktop and on an iPhone.
  for (const [device, reason] of [
    [devices['Desktop Chrome'], /Android phones and tablets/],
    [IPHONE, /does not open AR Quick Look/],
  ] as const) {
    const context = await browser.newContext({ ...device })
    const page = await context.newPage()
    await previewSession(page, baseURL)
    await page.goto(url)
    const note = page.locator(NOTE)
    await expect(note).toHaveCount(1)
    await expect(note).toHaveText(reason)
    await expect(note).toBeVisible()
    await expect(page.locator(VIEWER_LINK)).toHaveCount(0)
    await context.close()
  }
})

test('a phone with WebXR places the model in the room in the page, and leaving returns to the page as it was', async ({
  browser,
}) => {
  // A whole session in software: the page, the emulated room and the session draw every frame.
  test.setTimeout(120_000)
  const content = showcase('en-us')
  const url = urlOf(documentFile('page', 'showcase', 'en-us'))!
  const context = await xrPhone(browser)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  const scripts: string[] = []
  const arModels: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
    if (/[?&]tier=ar\b/.test(request.url())) arModels.push(request.url())
  })
  // When the viewer's slot went live, by the page's clock.
  await page.addInitScript(() => {
    new MutationObserver((records) => {
      for (const record of records) {
        const slot = record.target as HTMLElement
        if (
          slot.dataset['3dState'] === 'live' &&
          slot.closest('.slice-model-viewer') &&
          !(window as unknown as { __viewerLiveAt?: number }).__viewerLiveAt
        )
          (window as unknown as { __viewerLiveAt?: number }).__viewerLiveAt = performance.now()
      }
    }).observe(document as unknown as Node, {
      subtree: true,
      attributes: true,
      attributeFilter: ['data-3d-state'],
    })
  })
  await page.goto(url)

  // The viewer goes live as it does on any phone; its AR control is a button, not Scene Viewer's link.
  const index = await waitViewerLive(page)
  const button = page.getByRole('button', { name: content.viewer.ar_label! })
  await expect(button).toBeVisible()
  await expect(page.locator('a[data-ar-link]')).toHaveCount(0)
  expect(await axeViolations(page)).toEqual([])

  // A screen reader listens: it hears the session's steps from a live region already there.
  await startScreenReader(page)

  // Nothing of the session comes with the page. Its `ar` model starts to arrive once the viewer
  // beside the button is live and the page has settled, its chunk when the visitor reaches the
  // button (here with the keyboard), so that the press finds them.
  await expect
    .poll(() => arModels.length, { message: 'the ar model is fetched once the viewer is live' })
    .toBeGreaterThan(0)
  const { arAt, liveAt } = await page.evaluate(() => ({
    arAt: performance
      .getEntriesByType('resource')
      .find((entry) => /[?&]tier=ar\b/.test(entry.name))!.startTime,
    liveAt: (window as unknown as { __viewerLiveAt?: number }).__viewerLiveAt,
  }))
  expect(liveAt, 'the viewer went live').toBeGreaterThan(0)
  expect(arAt, 'the ar model was not asked for before the viewer was live').toBeGreaterThan(liveAt!)
  const scrolled = await page.evaluate(() => window.scrollY)
  const before = new Set(scripts)
  await button.focus()
  await expect
    .poll(() => scripts.filter((script) => !before.has(script)).length, {
      message: 'the AR chunk is fetched once the button has the focus',
    })
    .toBeGreaterThan(0)
  await page.keyboard.press('Enter')
  const overlay = page.getByRole('dialog', { name: content.viewer.ar_label! })
  // Given longer, under a loaded CI.
  await expect(overlay).toBeVisible({ timeout: 30_000 })
  const leave = overlay.getByRole('button', { name: 'Leave AR' })
  await expect(leave).toBeFocused()
  // Tab goes round the overlay's buttons, never into the page the camera's view hides.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab')
    expect(
      await overlay.evaluate((root) => root.contains(root.ownerDocument.activeElement)),
      `Tab ${i + 1}`,
    ).toBe(true)
  }
  await leave.focus()
  const status = overlay.getByRole('status')
  // The model loads inside the session (its ar variant, parsed on the page's thread).
  await expect(status).toHaveText('Move your phone slowly and point it at the floor.', {
    timeout: 30_000,
  })
  expect(await announced(page)).toContain('Move your phone slowly and point it at the floor.')
  const turnRight = overlay.getByRole('button', { name: 'Turn right' })
  await expect(turnRight).toBeDisabled()

  // Pointed at the floor, the reticle finds it; a tap places the model at its true size.
  await lookDown(page, 60)
  await expect(status).toHaveText('Tap to place the model here.')
  const canvas = page.locator('canvas[data-ar-canvas]')
  const empty = await screen(page)
  await tapRoom(page)
  await expect(status).toHaveText(/^Placed at its true size, /)
  await expect.poll(async () => changedShare(empty, await screen(page))).toBeGreaterThan(0.01)

  // The size it states is the AR variant's own, in metres.
  const variant = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .find((name) => new URL(name).searchParams.get('tier') === 'ar'),
  )
  expect(variant, 'the session loaded the AR variant').toBeTruthy()
  const glb = new Uint8Array(await (await page.request.get(variant!)).body())
  const document = await (await modelIO()).readBinary(glb)
  const { min, max } = getBounds(
    document.getRoot().getDefaultScene() ?? document.getRoot().listScenes()[0]!,
  )
  const stated = /true size, ([\d.]+) × ([\d.]+) × ([\d.]+) m/.exec((await status.textContent())!)!
  for (let axis = 0; axis < 3; axis++)
    expect(Number(stated[axis + 1])).toBeCloseTo(max[axis]! - min[axis]!, 2)

  // The buttons turn it; a press on them is not a tap on the room.
  await turnRight.click()
  await expect(status).toHaveText('Turned to 345°.')
  await overlay.getByRole('button', { name: 'Turn left' }).click()
  await overlay.getByRole('button', { name: 'Turn left' }).click()
  await expect(status).toHaveText('Turned to 15°.')

  // Another tap moves it: the device looks elsewhere on the floor, and the model follows.
  const placed = await screen(page)
  await lookDown(page, 40)
  await tapRoom(page)
  await expect(status).toHaveText(/^Placed at its true size, /)
  await expect.poll(async () => changedShare(placed, await screen(page))).toBeGreaterThan(0.01)

  // Leaving: the overlay and the session's canvas are gone, the page is where it was, the focus
  // back on the button, the viewer still live.
  await leave.click()
  await expect(overlay).toHaveCount(0)
  await expect(canvas).toHaveCount(0)
  await expect(button).toBeFocused()
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled)
  await expect(page.locator('[data-3d-state]').nth(index)).toHaveAttribute('data-3d-state', 'live')

  // A start the device refuses (a press it did not count as the visitor's) says to press again,
  // heard from the button's live region, on the page since the button came.
  await forget(page)
  await page.evaluate(() => {
    const xr = navigator.xr!
    const request = xr.requestSession.bind(xr)
    xr.requestSession = () => {
      xr.requestSession = request
      return Promise.reject(new DOMException('No user activation', 'NotAllowedError'))
    }
  })
  await button.click()
  await expect.poll(() => announced(page)).toEqual([arWords('en-us').again])
  await expect(page.locator('[data-ar-error]')).toHaveText(arWords('en-us').again)

  // A session begun whose layer the browser refuses says so in the overlay, and "Leave AR"
  // returns to the page.
  await page.evaluate(() => {
    const scope = window as unknown as { XRWebGLLayer: unknown }
    const layer = scope.XRWebGLLayer
    scope.XRWebGLLayer = function () {
      scope.XRWebGLLayer = layer
      throw new DOMException('The context is lost', 'InvalidStateError')
    }
  })
  await button.click()
  await expect(status).toHaveText('AR could not start on this device (The context is lost).')
  await overlay.getByRole('button', { name: 'Leave AR' }).click()
  await expect(overlay).toHaveCount(0)
  await expect(button).toBeFocused()

  // It starts again as the first time.
  await button.click()
  await expect(overlay).toBeVisible()
  await expect(status).toHaveText(/point it at the floor|Tap to place/)
  await overlay.getByRole('button', { name: 'Leave AR' }).click()
  await expect(overlay).toHaveCount(0)
  expect(errors).toEqual([])
  expect(await violations(page)).toEqual([])
  await context.close()
})

test('on a wall, resizable, in French: the reticle finds a wall, a tap hangs the model there, the buttons turn and resize it, in the page’s words; lit by the neutral preset when the environment file fails', async ({
  browser,
}) => {
  // A whole session in software: the page, the emulated room and the session draw every frame.
  test.setTimeout(120_000)
  const content = showcase('fr-fr')
  const url = urlOf(documentFile('page', 'showcase', 'fr-fr'))!
  const context = await xrPhone(browser)
  // The slice as an editor who chose the wall would have it: the page's props say `wall`.
  await context.route(`**${url}`, async (route) => {
    const response = await route.fetch()
    const html = (await response.text())
      .replaceAll(String.raw`\"placement\":\"floor\"`, String.raw`\"placement\":\"wall\"`)
      .replaceAll(String.raw`\"resizable\":false`, String.raw`\"resizable\":true`)
    expect(html).toContain(String.raw`\"placement\":\"wall\"`)
    expect(html).toContain(String.raw`\"resizable\":true`)
    // The body is sent as text: without the encoding and length of the compressed original, and
    // without its policy, whose hashes of the inline scripts the edit no longer matches.
    const headers = { ...response.headers() }
    for (const name of ['content-encoding', 'content-length', 'content-security-policy'])
      delete headers[name]
    await route.fulfill({ response, headers, body: html })
  })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('AR:'))
      warnings.push(message.text())
  })
  await page.goto(url)
  // The viewer live, lit by the slice's environment file; then that file cannot be had: the
  // session's model is lit by the neutral preset instead, and is placed all the same.
  await waitViewerLive(page)
  await context.route(/\.hdr(\?|$)/, (route) => route.fulfill({ status: 503, body: '' }))
  const button = page.getByRole('button', { name: content.viewer.ar_label! })
  const overlay = page.getByRole('dialog', { name: content.viewer.ar_label! })
  const status = overlay.getByRole('status')

  // The network goes once the button's small chunk is in: the session starts, the camera's view
  // shows, and the overlay says that the rest of AR could not come. Leaving returns to the page;
  // back online, the next press starts AR as if nothing had failed.
  const scripts = new Map<string, boolean>()
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.set(request.url(), false)
  })
  page.on('requestfinished', (request) => {
    if (scripts.has(request.url())) scripts.set(request.url(), true)
  })
  await button.focus()
  await expect
    .poll(() => scripts.size > 0 && [...scripts.values()].every(Boolean), {
      message: 'the AR button’s chunk is in once the button has the focus',
    })
    .toBe(true)
  const offline = /\/_next\/static\/chunks\//
  await context.route(offline, (route) => route.abort('internetdisconnected'))
  await page.keyboard.press('Enter')
  await expect(status).toHaveText(
    /^La RA n’a pas pu être chargée \(.+\)\. Vérifiez la connexion, quittez la RA et touchez à nouveau le bouton\.$/,
    { timeout: 30_000 },
  )
  await overlay.getByRole('button', { name: 'Quitter la RA' }).click()
  await expect(overlay).toHaveCount(0)
  await expect(button).toBeFocused()
  await context.unroute(offline)

  // The phone looks down at the floor, which is not a wall: the reticle waits for one.
  await lookDown(page, 60)
  await button.click()
  // The session's chunk is fetched and compiled on the press: given longer, under a loaded CI.
  await expect(status).toHaveText('Déplacez lentement votre téléphone et pointez-le vers un mur.', {
    timeout: 30_000,
  })
  await tapRoom(page)
  await expect(status).toHaveText(
    'Aucune surface trouvée là : pointez votre téléphone un peu plus longtemps.',
  )
  // Level, it faces the office's wall. The button places it as a tap would (a keyboard or a
  // switch has no tap on the room).
  await lookDown(page, 0)
  await expect(status).toHaveText('Touchez pour poser le modèle ici.')
  await overlay.getByRole('button', { name: 'Poser ici' }).click()
  await expect(status).toHaveText(/^Posé à sa taille réelle, [\d,]+ × [\d,]+ × [\d,]+ m\./)
  await overlay.getByRole('button', { name: 'Tourner à droite' }).click()
  await expect(status).toHaveText('Tourné à 345°.')
  // The slice lets the visitor resize it: one step larger, then two smaller.
  await overlay.getByRole('button', { name: 'Plus grand' }).click()
  await expect(status).toHaveText(
    /^Posé à 125 % de sa taille réelle \([\d,]+ × [\d,]+ × [\d,]+ m à 100 %\)/,
  )
  await overlay.getByRole('button', { name: 'Plus petit' }).click()
  await overlay.getByRole('button', { name: 'Plus petit' }).click()
  await expect(status).toHaveText(/^Posé à 80 % de sa taille réelle/)
  await overlay.getByRole('button', { name: 'Quitter la RA' }).click()
  await expect(overlay).toHaveCount(0)
  await expect(button).toBeFocused()
  expect(errors).toEqual([])
  expect(warnings, 'the console names the environment file the session could not use').toEqual([
    expect.stringMatching(/^AR: the environment \S+\.hdr\S* cannot be used \(.*503/),
  ])
  expect(await violations(page)).toEqual([])
  await context.close()
})
