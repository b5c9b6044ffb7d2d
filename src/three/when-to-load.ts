// When the 3D chunk (three.js, R3F, drei: about 270 KB gzipped, and a few hundred milliseconds of
// parsing and first frames on a phone) may load: as soon as the visitor engages with the page, or
// once the page has been interactive and quiet for a while. Never during the page's own start-up,
// which is what the visitor (and Lighthouse's Total Blocking Time) feels.

/** What counts as engaging: the visitor moves, touches, scrolls or types. */
const ENGAGEMENT = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown']

/**
 * How long the main thread must have been free of long tasks after `load`: the quiet window of
 * the Time to Interactive metric. After it the page is interactive by that definition, so the
 * 3D's own work no longer delays the visitor's first interactions.
 */
export const QUIET_MS = 5000

/**
 * Whether the visitor engaged before anyone listened: a page still hydrating (its scripts at 4×
 * CPU on a busy phone) misses a scroll, and the 3D would then wait out the quiet window though
 * the visitor is already there; traced, a viewer scrolled to during hydration went live 7.6 s
 * after the scroll instead of 2.5 s. A page away from its top counts (a page opened at an anchor
 * or a restored position too: the visitor is reading there). The sticky user activation
 * (`navigator.userActivation.hasBeenActive`) does not: pages opened by automation (Playwright,
 * here) have it from the start, so it would start the 3D during every measured page load.
 */
export function engagedAlready(): boolean {
  return window.scrollY !== 0 || window.scrollX !== 0
}

/**
 * Calls `callback` once: at the visitor's first engagement (or at once when the visitor scrolled
 * before this was called), or after `load` followed by `QUIET_MS` without a long task. Returns a
 * function that cancels the wait.
 */
export function whenEngagedOrQuiet(callback: () => void): () => void {
  let done = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let observer: PerformanceObserver | undefined
  const options: AddEventListenerOptions = { passive: true, capture: true }

  const cancel = () => {
    done = true
    clearTimeout(timer)
    observer?.disconnect()
    window.removeEventListener('load', onLoad)
    for (const type of ENGAGEMENT) window.removeEventListener(type, fire, options)
  }
  const fire = () => {
    if (done) return
    cancel()
    callback()
  }
  // Every long task restarts the quiet window.
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(fire, QUIET_MS)
  }
  function onLoad() {
    if (done) return
    arm()
    if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
      observer = new PerformanceObserver(arm)
      observer.observe({ type: 'longtask' })
    }
  }

  if (engagedAlready()) {
    // In a microtask, not synchronously: the caller's setup (an effect) finishes first.
    queueMicrotask(fire)
    return cancel
  }
  for (const type of ENGAGEMENT) window.addEventListener(type, fire, options)
  if (document.readyState === 'complete') onLoad()
  else window.addEventListener('load', onLoad, { once: true })
  return cancel
}

/** How near the screen a slot must come for its 3D to be warmed up: one viewport above or below. */
export const NEAR_MARGIN = '100% 0px'

/** The Network Information API, where the browser has it (Chromium). */
type Connection = { saveData?: boolean; effectiveType?: string }

const connection = (): Connection | undefined =>
  (navigator as Navigator & { connection?: Connection }).connection

/** Whether the visitor asked to save data (Save-Data): nothing of the 3D loads unasked. */
export function savesData(): boolean {
  return connection()?.saveData === true
}

/**
 * Whether the browser may fetch ahead what the visitor has not asked for yet (the warm-up, AR's
 * files): not with Save-Data, nor on a connection the browser rates 2G (`effectiveType` `2g` or
 * `slow-2g`: a round trip of 1.4 s or more), where every byte fetched ahead delays what the visitor
 * does ask for.
 */
export function mayFetchAhead(): boolean {
  const info = connection()
  if (!info) return true
  return !info.saveData && info.effectiveType !== '2g' && info.effectiveType !== 'slow-2g'
}

/**
 * How long no resource of the page must have finished loading for its network to count as quiet
 * (Lighthouse's network-quiet window is 500 ms too).
 */
export const NETWORK_QUIET_MS = 500

/**
 * The longest the warm-up waits for that quiet after `load`: a page that polls, or streams a video,
 * is never quiet, and its visitor would otherwise scroll to a cold slot.
 */
export const SETTLE_AT_MOST_MS = 10_000

/**
 * Calls `callback` at the main thread's next idle moment (at most `timeout` ms away); returns the
 * handle `cancelIdleCallback` (or `clearTimeout`) takes. WebKit has no requestIdleCallback: a task
 * stands in for it.
 */
function atIdle(callback: () => void, timeout: number): number {
  return window.requestIdleCallback
    ? window.requestIdleCallback(callback, { timeout })
    : (setTimeout(callback, 0) as unknown as number)
}

/**
 * Calls `callback` once the page's own loading is over: after `load`, once no resource has
 * finished for `NETWORK_QUIET_MS` (a lazy image the visitor's screen asked for, a route's data the
 * framework prefetches, the fonts) and the main thread is idle. Returns a function that cancels.
 *
 * Resource Timing reports a request when it ends, never while it is in flight, so a download
 * longer than the window could still be running; the images of the first screen are the bulk of
 * a page's own bytes and are in by `load` (the lazy ones are few and small).
 */
export function whenPageSettled(callback: () => void): () => void {
  let done = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let atMost: ReturnType<typeof setTimeout> | undefined
  let idle: number | undefined
  let observer: PerformanceObserver | undefined
  const cancel = () => {
    done = true
    clearTimeout(timer)
    clearTimeout(atMost)
    observer?.disconnect()
    if (idle !== undefined) (window.cancelIdleCallback ?? clearTimeout)(idle)
    window.removeEventListener('load', onLoad)
  }
  const settled = () => {
    if (done || idle !== undefined) return
    clearTimeout(timer)
    clearTimeout(atMost)
    observer?.disconnect()
    idle = atIdle(() => {
      if (!done) callback()
    }, 2000)
  }
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(settled, NETWORK_QUIET_MS)
  }
  function onLoad() {
    if (done) return
    atMost = setTimeout(settled, SETTLE_AT_MOST_MS)
    if (
      typeof PerformanceObserver !== 'undefined' &&
      PerformanceObserver.supportedEntryTypes?.includes('resource')
    ) {
      observer = new PerformanceObserver(arm)
      observer.observe({ type: 'resource' })
    }
    // Quiet already if the last resource ended a window ago.
    const last = performance
      .getEntriesByType('resource')
      .reduce(
        (latest, entry) => Math.max(latest, (entry as PerformanceResourceTiming).responseEnd),
        0,
      )
    const since = performance.now() - last
    if (since >= NETWORK_QUIET_MS) settled()
    else timer = setTimeout(settled, NETWORK_QUIET_MS - since)
  }
  if (document.readyState === 'complete') onLoad()
  else window.addEventListener('load', onLoad, { once: true })
  return cancel
}

/**
 * Calls `callback` once the page has started: after `load` (its first screen's images are in),
 * at the main thread's next idle moment (the framework's scripts have run by then, or run first).
 * Returns a function that cancels. Unlike `whenPageSettled`, no wait for the network to go quiet:
 * on a phone's network the page's scripts end 1–2 s after `load`, the quiet window comes half a
 * second later still, and a visitor who scrolls 1.5 s after `load` came before a warm-up that
 * waited for it (traced on slow 4G: nothing of the 3D asked for before such a scroll, and the
 * viewer live 3.9 s after it). What the network still brings then (a lazy image further down, a
 * route the framework prefetches) is no more the visitor's than the 3D a viewport away.
 */
export function whenPageReady(callback: () => void): () => void {
  let done = false
  let idle: number | undefined
  const cancel = () => {
    done = true
    if (idle !== undefined) (window.cancelIdleCallback ?? clearTimeout)(idle)
    window.removeEventListener('load', onLoad)
  }
  function onLoad() {
    if (done) return
    idle = atIdle(() => {
      if (!done) callback()
    }, 1000)
  }
  if (document.readyState === 'complete') onLoad()
  else window.addEventListener('load', onLoad, { once: true })
  return cancel
}

/**
 * Calls `callback` once, when `element` comes within a viewport of the screen (`NEAR_MARGIN`), but
 * never during the page's own start (`whenPageReady`: after `load`, at an idle moment): the
 * warm-up it starts runs off the main thread, and is done, or under way, when a visitor who does
 * not wait scrolls to the slot. Returns a function that cancels the wait.
 */
export function whenNear(element: Element, callback: () => void): () => void {
  let done = false
  let observer: IntersectionObserver | undefined
  const stopWaiting = whenPageReady(() => {
    if (done) return
    observer = new IntersectionObserver(
      (entries) => {
        if (done || !entries.some((entry) => entry.isIntersecting)) return
        cancel()
        callback()
      },
      { rootMargin: NEAR_MARGIN },
    )
    observer.observe(element)
  })
  const cancel = () => {
    done = true
    stopWaiting()
    observer?.disconnect()
  }
  return cancel
}
