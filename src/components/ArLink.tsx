'use client'

import { useEffect, useState, useSyncExternalStore } from 'react'
import { arSupport, PREVIEW_COOKIE, quickLookUrl, sceneViewerUrl, type ArSettings } from '@/lib/ar'

/** Props for `ArLink`: the slice's AR settings as `viewerAr` read them (src/three/fields.ts). */
export type ArLinkProps = {
  /** The id of the viewer's figure: Scene Viewer's way back lands there. */
  returnTo: string
} & ({ state: 'on'; model: string; settings: ArSettings } | { state: 'incomplete'; reason: string })

/** What the link depends on in the browser: the device, and whether this is a preview. */
type Device = {
  userAgent: string
  touchPoints: number
  quickLook: boolean
  preview: boolean
  page: string
}

/** Whether the browser says it opens `<a rel="ar">` in AR Quick Look (Safari does). */
function opensArLinks(): boolean {
  try {
    return document.createElement('a').relList.supports('ar')
  } catch {
    return false
  }
}

/** A small AR mark, first in the link: Safari shows AR Quick Look's badge over a link's image. */
const AR_MARK =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%2316161a' stroke-width='1.6' stroke-linejoin='round'%3E%3Cpath d='M12 2.5 20.5 7v10L12 21.5 3.5 17V7z'/%3E%3Cpath d='M3.5 7 12 11.5 20.5 7M12 11.5v10'/%3E%3C/svg%3E"

/** The mark as the link's first child: a plain image, as Safari looks for one. */
const mark = (
  // eslint-disable-next-line @next/next/no-img-element -- a data: image, nothing to optimize
  <img src={AR_MARK} alt="" width={20} height={20} />
)

const DEVICE_UNKNOWN = null
const noSubscription = () => () => {}
let lastDevice: { key: string; device: Device } | null = null

/** The browser's `Device`, the same object while nothing changed (useSyncExternalStore). */
function device(): Device {
  const next: Device = {
    userAgent: navigator.userAgent,
    touchPoints: navigator.maxTouchPoints,
    quickLook: opensArLinks(),
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
  const support = arSupport(browser.userAgent, browser.touchPoints, browser.quickLook)
  if (support.viewer === 'none') return note(support.reason)
  if (support.viewer === 'quick-look')
    return (
      <QuickLookLink
        href={quickLookUrl(props.model, browser.page, props.settings)}
        label={props.settings.label}
        preview={browser.preview}
      />
    )
  const page = new URL(browser.page)
  page.hash = props.returnTo
  return (
    <a
      className="ar-link"
      href={sceneViewerUrl(props.model, page.href, props.settings)}
      data-ar-link=""
    >
      {mark}
      {props.settings.label}
    </a>
  )
}

/**
 * AR Quick Look's link, in the markup Safari requires: `<a rel="ar">` whose first child is an
 * image. Shown once the USDZ answers: a model the server could not make into USDZ (a KTX2
 * texture, say) gets no link, and in a preview one line with the server's reason. Only the
 * response's headers are awaited; the file itself is fetched by AR Quick Look when tapped.
 */
function QuickLookLink({
  href,
  label,
  preview,
}: {
  href: string
  label: string
  preview: boolean
}) {
  const [state, setState] = useState<{ href: string; ok: boolean; reason?: string } | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    fetch(href, { signal: controller.signal })
      .then(async (response) => {
        if (response.ok) {
          controller.abort()
          setState({ href, ok: true })
        } else
          setState({
            href,
            ok: false,
            reason: `AR Quick Look cannot open this model: ${(await response.text()).trim() || response.status}`,
          })
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setState({
            href,
            ok: false,
            reason: `AR Quick Look's file did not load: ${String(error)}`,
          })
      })
    return () => controller.abort()
  }, [href])
  if (!state || state.href !== href) return null
  if (!state.ok)
    return preview ? (
      <p className="ar-note" data-ar-note="">
        {state.reason}
      </p>
    ) : null
  return (
    <a className="ar-link" rel="ar" href={href} data-ar-link="">
      {mark}
      {label}
    </a>
  )
}
