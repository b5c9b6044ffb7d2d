'use client'

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  AR_MARKS,
  AR_TIER,
  arSupport,
  PREVIEW_COOKIE,
  quickLookUrl,
  sceneViewerUrl,
  webXrArSupported,
  type ArSettings,
} from '@/lib/ar'
import { variantUrl } from '@/three/model-variant'
import { mayFetchAhead, whenPageSettled } from '@/three/when-to-load'
import { fetchAtMost } from '@/three/render/prefetch'

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
  const sceneViewer =
    support.viewer === 'scene-viewer'
      ? sceneViewerUrl(props.model, page.href, props.settings)
      : null
  return (
    <WebXrOr
      model={props.model}
      settings={props.settings}
      page={browser.page}
      sceneViewer={sceneViewer}
      none={support.viewer === 'none' ? note(support.reason) : null}
    />
  )
}

/**
 * Where the browser has WebXR with hit-testing (`immersive-ar`: Android's Chrome), a button that
 * places the model in the room in the page itself (src/three/ar/start.ts, loaded on the press);
 * else Scene Viewer's link on Android (`sceneViewer`), or `none`. Nothing shows while the browser
 * answers whether it can (one call, no task of note).
 */
function WebXrOr({
  model,
  settings,
  page,
  sceneViewer,
  none,
}: {
  model: string
  settings: ArSettings
  page: string
  sceneViewer: string | null
  none: React.ReactNode
}) {
  const [webXr, setWebXr] = useState<boolean | null>(null)
  useEffect(() => {
    let current = true
    webXrArSupported().then((supported) => {
      if (current) setWebXr(supported)
    })
    return () => {
      current = false
    }
  }, [])
  if (webXr === null) return null
  if (webXr)
    return (
      <WebXrButton
        model={variantUrl(model, AR_TIER, page)}
        settings={settings}
        sceneViewer={sceneViewer}
      />
    )
  if (!sceneViewer) return none
  return (
    <a className="ar-link" href={sceneViewer} data-ar-link="">
      {mark}
      {settings.label}
    </a>
  )
}

/**
 * The button that starts the in-page AR session. Its model is fetched once the viewer is live and
 * the page idle, its code (three.js, the loader, the overlay) when the visitor points at it or
 * focuses it; neither with the page. A session the browser refuses for want of a fresh press
 * asks for another; one it cannot start at all opens Scene Viewer instead on Android, or says why.
 */
function WebXrButton({
  model,
  settings,
  sceneViewer,
}: {
  model: string
  settings: ArSettings
  sceneViewer: string | null
}) {
  const ref = useRef<HTMLButtonElement>(null)
  const [state, setState] = useState<{ busy: boolean; message?: string }>({ busy: false })
  // What the press needs is fetched ahead of it, so that the press finds it in memory and the HTTP
  // cache (the model is served for good under its URL) instead of fetching it after. Not where the
  // browser says the visitor saves data or is on 2G: it all comes on the press.
  // - The `ar` model, once the viewer beside the button is live and the page has settled (its
  //   network quiet, its main thread idle): bytes only, no task of note on the page. Only up to
  //   the warm-up's cap (a scan's `ar` file can be megabytes); a larger one comes on the press.
  // - The session's first chunk (start.ts: no three.js, a few kilobytes), when the visitor points
  //   at the button or reaches it with the keyboard. Its three.js comes on the press, while the
  //   browser starts the session: evaluating it took one task of 141 ms at 4× CPU (traced on the
  //   showcase, the viewer live), which a visitor looking at the model could meet.
  const modelWarmed = useRef(false)
  const warmModel = useCallback(() => {
    if (modelWarmed.current || !mayFetchAhead()) return
    modelWarmed.current = true
    fetchAtMost(model).catch(() => {})
  }, [model])
  const codeWarmed = useRef(false)
  const warm = () => {
    warmModel()
    if (codeWarmed.current || !mayFetchAhead()) return
    codeWarmed.current = true
    import('@/three/ar/start').catch(() => {})
  }
  useEffect(() => {
    const state = ref.current?.closest('[data-3d-slot]')?.querySelector('[data-3d-state]')
    if (!state) return
    let unsettle: (() => void) | undefined
    const whenLive = () => {
      if (state.getAttribute('data-3d-state') !== 'live') return false
      unsettle = whenPageSettled(warmModel)
      return true
    }
    if (whenLive()) return () => unsettle?.()
    const observer = new MutationObserver(() => {
      if (whenLive()) observer.disconnect()
    })
    observer.observe(state, { attributes: true, attributeFilter: ['data-3d-state'] })
    return () => {
      observer.disconnect()
      unsettle?.()
    }
  }, [warmModel])
  const press = async () => {
    if (state.busy) return
    performance.mark(AR_MARKS.press)
    setState({ busy: true })
    let ar: typeof import('@/three/ar/start') | null = null
    try {
      ar = await import('@/three/ar/start')
      await ar.enterAr({
        model,
        settings,
        returnFocus: ref.current,
        onEnd: () => setState({ busy: false }),
      })
    } catch (error) {
      const kind = (error as { kind?: string } | null)?.kind
      if (sceneViewer && kind !== 'activation') {
        location.href = sceneViewer
        setState({ busy: false })
        return
      }
      console.error('AR did not start:', error)
      setState({
        busy: false,
        message: ar ? ar.startErrorMessage(error) : String(error),
      })
    }
  }
  return (
    <div className="ar-actions">
      <button
        ref={ref}
        type="button"
        className="ar-link"
        data-ar-link=""
        data-ar-mode="webxr"
        aria-busy={state.busy}
        onPointerEnter={warm}
        onPointerDown={warm}
        onFocus={warm}
        onClick={press}
      >
        {mark}
        {settings.label}
      </button>
      {state.message && (
        // Shown to the eye; a screen reader hears it from the live region below.
        <p className="ar-note" aria-hidden="true" data-ar-error="">
          {state.message}
        </p>
      )}
      {/* On the page with the button, empty until a start fails: a screen reader hears a change
          in a live region already there, not one that arrives with its words (WCAG 4.1.3). Only
          its words change. */}
      <p className="visually-hidden" role="status">
        {state.message}
      </p>
    </div>
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
