// "View in your room": which AR viewer a visitor's device can open for a model, and the link
// that opens it. Plain code, no React and no three.js: the slice's link (src/components/ArLink.tsx)
// and the unit tests share it. Written here rather than taken from `<model-viewer>`, whose AR
// code is part of its custom element and not published on its own.

import type { SceneLook } from '@rules/look'
import { variantUrl } from '@/three/model-variant'

/** What the model viewer slice asks of AR (src/three/fields.ts reads it from the slice). */
export type ArSettings = {
  /** The button's words, from the slice. */
  label: string
  /** Where the model goes: on the floor, or on a wall. */
  placement: 'floor' | 'wall'
  /** Whether the visitor may resize it; off, it stays at its true size. */
  resizable: boolean
  /** The model's name in the AR viewer (it shows the first 60 characters). */
  title: string
  /**
   * The slice's light, for the in-page WebXR session: its environment, exposure and tone mapping
   * (look.ts). Scene Viewer and AR Quick Look light the model themselves, with its own materials.
   */
  look?: Pick<SceneLook, 'environment' | 'exposure' | 'toneMapping'>
}

/** How this device places a model in the room, or why it cannot. */
export type ArSupport =
  { viewer: 'scene-viewer' } | { viewer: 'quick-look' } | { viewer: 'none'; reason: string }

/**
 * The AR viewer of the device that sent `userAgent`. `touchPoints`: `navigator.maxTouchPoints`,
 * which tells an iPad (whose Safari says "Macintosh") from a Mac. `quickLook`: whether the
 * browser says it opens `<a rel="ar">` (`relList.supports('ar')`, which Safari answers).
 *
 * Android's browsers but Firefox open Scene Viewer through an intent URL (Firefox does not
 * follow one). Headsets' browsers are Android too, and have no camera view of the room. On
 * iPhone and iPad, Safari opens AR Quick Look, and so do the other browsers there, which are
 * Safari's engine with another name (Chrome, Edge, Firefox, the Google app, DuckDuckGo), as
 * `<model-viewer>` counts them; an in-app browser may not.
 */
export function arSupport(userAgent: string, touchPoints = 0, quickLook = false): ArSupport {
  const ios =
    /\b(iPhone|iPad|iPod)\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && touchPoints > 1)
  if (ios)
    return quickLook || /\b(CriOS|EdgiOS|FxiOS|GSA|DuckDuckGo)\//.test(userAgent)
      ? { viewer: 'quick-look' }
      : {
          viewer: 'none',
          reason:
            'This browser on iPhone or iPad does not open AR Quick Look (an in-app browser may not); Safari does.',
        }
  if (/\bAndroid\b/.test(userAgent)) {
    if (/\b(OculusBrowser|Quest|Pico)\b/i.test(userAgent))
      return {
        viewer: 'none',
        reason: 'A headset’s browser has no view of the room to place a model in.',
      }
    if (/\bFirefox\//.test(userAgent))
      return {
        viewer: 'none',
        reason:
          'Firefox on Android cannot open Scene Viewer, Android’s AR viewer; Chrome and most other browsers can.',
      }
    return { viewer: 'scene-viewer' }
  }
  return {
    viewer: 'none',
    reason:
      'This device has no AR viewer the site can open: the button shows on Android phones and tablets (Scene Viewer), and on iPhone and iPad (AR Quick Look).',
  }
}

/**
 * The cookie a Prismic preview sets (`cookie.preview` of @prismicio/client, which the preview
 * route sets; a unit test holds them equal). Named here so that the page's client code does not
 * import the client for one string.
 */
export const PREVIEW_COOKIE = 'io.prismic.preview'

/**
 * The User Timing marks of an in-page AR session: the press (src/components/ArLink.tsx), its first
 * XR frame and its model loaded (src/three/ar/session.ts). `npm run bench:ar` reads them.
 */
export const AR_MARKS = {
  press: 'facet:ar-press',
  firstFrame: 'facet:ar-first-frame',
  model: 'facet:ar-model',
} as const

/** The query value of the model variant made for a phone's AR viewer (docs/3d-models.md). */
export const AR_TIER = 'ar'

/**
 * The URL AR Quick Look opens for `model`: its USDZ, made on the server from the `ar` tier
 * (`format=usdz`, with `placement=wall` for a wall: AR Quick Look reads the placement from the
 * file), and `#allowsContentScaling=0` unless the slice lets the visitor resize it (Apple's
 * fragment for a model kept at its true size).
 */
export function quickLookUrl(model: string, page: string, settings: ArSettings): string {
  const url = new URL(variantUrl(model, AR_TIER, page))
  url.search += `&format=usdz${settings.placement === 'wall' ? '&placement=wall' : ''}`
  if (!settings.resizable) url.hash = 'allowsContentScaling=0'
  return url.href
}

/**
 * The intent URL that opens `model` in Scene Viewer, as Google documents it for the web
 * (developers.google.com/ar/develop/scene-viewer): AR first (`ar_preferred`, which falls back to
 * Scene Viewer's 3D view on a phone without ARCore), the model's absolute URL (its `tier=ar`
 * variant: plain glTF with PNG or JPEG maps), its title, wall placement when asked, resizing off
 * unless allowed, and `browser_fallback_url` back to `page` (Chrome opens it when no app takes
 * the intent). Version 1.2 through the ARCore package (Google Play Services for AR), as
 * `<model-viewer>` opens it: the version that reads `resizable` and `enable_vertical_placement`.
 *
 * `model`: the model's URL as the page carries it (site-relative, on the page's origin); `page`:
 * the page's URL, with the hash that brings the visitor back to the viewer.
 */
export function sceneViewerUrl(model: string, page: string, settings: ArSettings): string {
  const file = variantUrl(model, AR_TIER, page)
  const params = new URLSearchParams({ file, mode: 'ar_preferred' })
  const title = settings.title.trim()
  if (title) params.set('title', title)
  if (!settings.resizable) params.set('resizable', 'false')
  if (settings.placement === 'wall') params.set('enable_vertical_placement', 'true')
  return (
    `intent://arvr.google.com/scene-viewer/1.2?${params}` +
    '#Intent;scheme=https;package=com.google.ar.core;' +
    'action=android.intent.action.VIEW;' +
    `S.browser_fallback_url=${encodeURIComponent(page)};end;`
  )
}

/**
 * Whether the browser can place a model in the room in the page itself: WebXR's `immersive-ar`
 * with hit-testing (Android's Chrome and the browsers built on it; not desktops, which answer
 * false). Resolves false wherever WebXR is missing or the question fails.
 */
export async function webXrArSupported(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.xr) return false
  if (typeof XRSession === 'undefined' || !('requestHitTestSource' in XRSession.prototype))
    return false
  try {
    return await navigator.xr.isSessionSupported('immersive-ar')
  } catch {
    return false
  }
}
