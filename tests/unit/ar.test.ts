import { cookie, type Content } from '@prismicio/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  arSupport,
  PREVIEW_COOKIE,
  quickLookUrl,
  sceneViewerUrl,
  webXrArSupported,
  type ArSettings,
} from '../../src/lib/ar'
import { arWords, sizeInMetres } from '../../src/three/ar/words'
import { viewerAr } from '../../src/three/fields'

// "View in your room" (issue 42): which device gets which AR viewer, the Scene Viewer link as
// Google documents it, and what the model viewer slice asks for.

const UA = {
  pixelChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0',
  quest:
    'Mozilla/5.0 (X11; Linux x86_64; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/35.0 Chrome/128.0.0.0 VR Safari/537.36',
  questAndroid:
    'Mozilla/5.0 (Linux; Android 12; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/35.0 Chrome/128.0.0.0 Mobile VR Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  ipadDesktopMode:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  linuxChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
}

describe('the AR viewer of a device', () => {
  it("opens Scene Viewer in Android's browsers, but Firefox and a headset's", () => {
    expect(arSupport(UA.pixelChrome)).toEqual({ viewer: 'scene-viewer' })
    expect(arSupport(UA.samsung)).toEqual({ viewer: 'scene-viewer' })
    for (const ua of [UA.androidFirefox, UA.questAndroid, UA.quest]) {
      const support = arSupport(ua, 5)
      expect(support.viewer, ua).toBe('none')
    }
    expect(arSupport(UA.androidFirefox)).toMatchObject({ reason: /Firefox on Android/ })
    expect(arSupport(UA.questAndroid)).toMatchObject({ reason: /headset/ })
  })

  it('opens AR Quick Look on iPhone and iPad where the browser says so, or is one of Safari\'s names (an iPad says "Macintosh" but has touch)', () => {
    expect(arSupport(UA.iphone, 5, true)).toEqual({ viewer: 'quick-look' })
    expect(arSupport(UA.ipadDesktopMode, 5, true)).toEqual({ viewer: 'quick-look' })
    expect(arSupport(UA.iphoneChrome, 5, false)).toEqual({ viewer: 'quick-look' })
    // An in-app browser that does not say it opens `rel="ar"`.
    expect(arSupport(UA.iphone, 5, false)).toEqual({
      viewer: 'none',
      reason: expect.stringMatching(/does not open AR Quick Look/),
    })
  })

  it('offers nothing on a desktop, and says where the button shows', () => {
    expect(arSupport(UA.ipadDesktopMode, 0)).toMatchObject({ viewer: 'none', reason: /Android/ })
    expect(arSupport(UA.linuxChrome)).toMatchObject({ viewer: 'none', reason: /Android/ })
  })

  it("names the cookie of @prismicio/client's preview", () => {
    expect(PREVIEW_COOKIE).toBe(cookie.preview)
  })
})

const SETTINGS: ArSettings = {
  label: 'View in your room',
  placement: 'floor',
  resizable: false,
  title: 'Turn the desk lamp',
}

/** The parts of an intent URL: its https target, and the intent's extras. */
function parseIntent(href: string) {
  const match = /^intent:\/\/([^#]+)#Intent;(.*);end;$/.exec(href)
  expect(match, href).not.toBeNull()
  const target = new URL(`https://${match![1]}`)
  const extras = Object.fromEntries(match![2]!.split(';').map((pair) => pair.split(/=(.*)/s, 2)))
  return { target, extras }
}

describe('the Scene Viewer link', () => {
  const page = 'https://studio.example/en-us/showcase?x=1#model-viewer-3'

  it("opens the model's AR variant, by its absolute URL, AR first, at its true size, with the way back", () => {
    const href = sceneViewerUrl('/local/prismic/media/models/lamp.glb?v=abc', page, SETTINGS)
    const { target, extras } = parseIntent(href)
    expect(target.origin + target.pathname).toBe('https://arvr.google.com/scene-viewer/1.2')
    expect(target.searchParams.get('file')).toBe(
      'https://studio.example/local/prismic/media/models/lamp.glb?v=abc&tier=ar',
    )
    expect(target.searchParams.get('mode')).toBe('ar_preferred')
    expect(target.searchParams.get('title')).toBe('Turn the desk lamp')
    expect(target.searchParams.get('resizable')).toBe('false')
    expect(target.searchParams.has('enable_vertical_placement')).toBe(false)
    expect(extras).toEqual({
      scheme: 'https',
      package: 'com.google.ar.core',
      action: 'android.intent.action.VIEW',
      'S.browser_fallback_url': encodeURIComponent(page),
    })
    expect(decodeURIComponent(extras['S.browser_fallback_url']!)).toBe(page)
  })

  it('places on a wall and lets the visitor resize when the slice says so; a hosted model keeps its src', () => {
    const href = sceneViewerUrl(
      '/3d-models?src=https%3A%2F%2Fstudio.cdn.prismic.io%2Fstudio%2Fchair.glb',
      page,
      { ...SETTINGS, placement: 'wall', resizable: true, title: '' },
    )
    const { target } = parseIntent(href)
    const file = new URL(target.searchParams.get('file')!)
    expect(file.origin + file.pathname).toBe('https://studio.example/3d-models')
    expect(file.searchParams.get('src')).toBe('https://studio.cdn.prismic.io/studio/chair.glb')
    expect(file.searchParams.get('tier')).toBe('ar')
    expect(target.searchParams.get('enable_vertical_placement')).toBe('true')
    expect(target.searchParams.has('resizable')).toBe(false)
    expect(target.searchParams.has('title')).toBe(false)
  })

  it('keeps a title with every character intact, however it is written', () => {
    const title = 'Chaise « Orbit » & co — 50% #1'
    const { target } = parseIntent(sceneViewerUrl('/m.glb', page, { ...SETTINGS, title }))
    expect(target.searchParams.get('title')).toBe(title)
  })
})

describe('the AR Quick Look link', () => {
  const page = 'https://studio.example/en-us/showcase'

  it("opens the model's USDZ, made from the ar tier, kept at its true size unless the slice allows resizing", () => {
    const fixed = new URL(
      quickLookUrl('/local/prismic/media/models/lamp.glb?v=abc', page, SETTINGS),
    )
    expect(fixed.origin + fixed.pathname).toBe(
      'https://studio.example/local/prismic/media/models/lamp.glb',
    )
    expect([...fixed.searchParams]).toEqual([
      ['v', 'abc'],
      ['tier', 'ar'],
      ['format', 'usdz'],
    ])
    expect(fixed.hash).toBe('#allowsContentScaling=0')
    const free = new URL(
      quickLookUrl('/m.glb', page, { ...SETTINGS, resizable: true, placement: 'wall' }),
    )
    expect(free.searchParams.get('placement')).toBe('wall')
    expect(free.hash).toBe('')
  })
})

const model = {
  link_type: 'Media',
  kind: 'file',
  name: 'lamp.glb',
  url: 'https://cdn.example/lamp.glb',
  size: '1',
}

function ar(primary: Record<string, unknown>) {
  return viewerAr({
    slice_type: 'model_viewer',
    variation: 'default',
    primary: { model, heading: 'The lamp', description: 'A lamp.', ...primary },
    items: [],
  } as unknown as Content.ModelViewerSlice)
}

describe('what the model viewer slice asks of AR', () => {
  it('is off unless the editor turned it on, as in documents written before the fields', () => {
    expect(ar({})).toEqual({ state: 'off' })
    expect(ar({ ar: false, ar_label: 'View' })).toEqual({ state: 'off' })
  })

  it('reads the label, the placement and resizing, the title from the heading', () => {
    expect(
      ar({ ar: true, ar_label: ' View in your room ', ar_placement: 'wall', ar_resize: true }),
    ).toEqual({
      state: 'on',
      model: 'https://cdn.example/lamp.glb',
      settings: {
        label: 'View in your room',
        placement: 'wall',
        resizable: true,
        title: 'The lamp',
        // The site's light, where the slice says nothing of it (the in-page session uses it).
        look: {
          environment: { kind: 'preset', preset: 'neutral' },
          exposure: 1,
          toneMapping: 'neutral',
        },
      },
    })
    // The slice's own light, for the session.
    expect(
      ar({
        ar: true,
        ar_label: 'View',
        environment: 'outdoor',
        exposure: 1.4,
        tone_mapping: 'AgX',
      }),
    ).toMatchObject({
      settings: {
        look: {
          environment: { kind: 'preset', preset: 'outdoor' },
          exposure: 1.4,
          toneMapping: 'agx',
        },
      },
    })
    expect(ar({ ar: true, ar_label: 'Voir', ar_placement: null, heading: null })).toMatchObject({
      settings: { placement: 'floor', resizable: false, title: 'A lamp.' },
    })
  })

  it('says which field is missing when AR is on without a label or a model', () => {
    expect(ar({ ar: true, ar_label: '  ' })).toEqual({
      state: 'incomplete',
      reason: expect.stringContaining('ar_label'),
    })
    expect(ar({ ar: true, ar_label: 'View', model: { link_type: 'Media' } })).toEqual({
      state: 'incomplete',
      reason: expect.stringContaining('model'),
    })
  })
})

describe('the in-page AR session (WebXR)', () => {
  afterEach(() => vi.unstubAllGlobals())

  /** A browser whose WebXR answers `supported` for `immersive-ar`, with hit-testing or not. */
  function browser(supported: boolean | Error, hitTest = true) {
    vi.stubGlobal('navigator', {
      xr: {
        isSessionSupported: async (mode: string) => {
          if (supported instanceof Error) throw supported
          return mode === 'immersive-ar' && supported
        },
      },
    })
    vi.stubGlobal(
      'XRSession',
      hitTest
        ? class {
            requestHitTestSource() {}
          }
        : class {},
    )
  }

  it('is offered where WebXR has immersive-ar with hit-testing, and nowhere else', async () => {
    browser(true)
    expect(await webXrArSupported()).toBe(true)
    browser(false)
    expect(await webXrArSupported()).toBe(false)
    browser(true, false)
    expect(await webXrArSupported()).toBe(false)
    browser(new Error('SecurityError'))
    expect(await webXrArSupported()).toBe(false)
    vi.stubGlobal('navigator', {})
    expect(await webXrArSupported()).toBe(false)
  })

  it("speaks the page's language, English where none is written, and states sizes in metres", () => {
    expect(arWords('fr-fr').leave).toBe('Quitter la RA')
    expect(arWords('en-us').leave).toBe('Leave AR')
    expect(arWords('de-de').leave).toBe('Leave AR')
    expect(sizeInMetres(0.4219, 1.6, 0.42, 'en-us')).toBe('0.42 × 1.6 × 0.42 m')
    expect(sizeInMetres(0.4219, 1.6, 0.42, 'fr-fr')).toBe('0,42 × 1,6 × 0,42 m')
    const en = arWords('en-us')
    expect(en.placed('1 × 2 × 3 m', 100)).toMatch(/^Placed at its true size, 1 × 2 × 3 m\./)
    expect(en.placed('1 × 2 × 3 m', 80)).toMatch(/^Placed at 80% of its true size/)
  })
})
