'use client'

import { useSyncExternalStore } from 'react'
import { arSupport, PREVIEW_COOKIE, sceneViewerUrl, type ArSettings } from '@/lib/ar'

/** Props for `ArLink`: the slice's AR settings as `viewerAr` read them (src/three/fields.ts). */
export type ArLinkProps = {
  /** The id of the viewer's figure: Scene Viewer's way back lands there. */
  returnTo: string
} & ({ state: 'on'; model: string; settings: ArSettings } | { state: 'incomplete'; reason: string })

/** What the link depends on in the browser: the device, and whether this is a preview. */
type Device = { userAgent: string; touchPoints: number; preview: boolean; page: string }

const DEVICE_UNKNOWN = null
const noSubscription = () => () => {}
let lastDevice: { key: string; device: Device } | null = null

/** The browser's `Device`, the same object while nothing changed (useSyncExternalStore). */
function device(): Device {
  const next: Device = {
    userAgent: navigator.userAgent,
    touchPoints: navigator.maxTouchPoints,
    // The preview route sets the Prismic toolbar's cookie (src/app/api/preview/route.ts).
    preview: document.cookie.split('; ').some((pair) => pair.startsWith(`${PREVIEW_COOKIE}=`)),
    page: location.href.split('#')[0]!,
  }
  const key = JSON.stringify(next)
  if (lastDevice?.key !== key) lastDevice = { key, device: next }
  return lastDevice.device
}

/**
 * "View in your room": a link that opens the model in the device's AR viewer, shown once the page
 * knows the device (after hydration; the server cannot tell), over the viewer's corner so that it
 * moves nothing on the page. On a device without an AR viewer the site can open, nothing shows,
 * but in a preview, where an editor sees one line saying why. It needs no WebGL and no 3D chunk:
 * the AR viewer fetches the model itself, so it works with Save-Data or before the 3D starts.
 */
export function ArLink(props: ArLinkProps) {
  const browser = useSyncExternalStore(noSubscription, device, () => DEVICE_UNKNOWN)
  if (!browser) return null
  const note = (text: string) =>
    browser.preview ? (
      <p className="ar-note" data-ar-note="">
        {text}
      </p>
    ) : null
  if (props.state === 'incomplete') return note(props.reason)
  const support = arSupport(browser.userAgent, browser.touchPoints)
  if (support.viewer === 'none') return note(support.reason)
  const page = new URL(browser.page)
  page.hash = props.returnTo
  return (
    <a
      className="ar-link"
      href={sceneViewerUrl(props.model, page.href, props.settings)}
      data-ar-link=""
    >
      {props.settings.label}
    </a>
  )
}
