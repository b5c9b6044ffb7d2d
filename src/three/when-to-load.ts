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

/**
 * Calls `callback` once, when `element` comes within a viewport of the screen (`NEAR_MARGIN`), but
 * never before the page has loaded and the main thread is idle: nothing of the 3D's competes
 * with the page's own start. Returns a function that cancels the wait.
 */
export function whenNear(element: Element, callback: () => void): () => void {
  let done = false
  let observer: IntersectionObserver | undefined
  let idle: number | undefined
  const cancel = () => {
    done = true
    observer?.disconnect()
    if (idle !== undefined) (window.cancelIdleCallback ?? clearTimeout)(idle)
    window.removeEventListener('load', onLoad)
  }
  const watch = () => {
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
  }
  function onLoad() {
    if (done) return
    // WebKit has no requestIdleCallback: a task after `load` stands in for it.
    idle = window.requestIdleCallback
      ? window.requestIdleCallback(watch, { timeout: 2000 })
      : (setTimeout(watch, 0) as unknown as number)
  }
  if (document.readyState === 'complete') onLoad()
  else window.addEventListener('load', onLoad, { once: true })
  return cancel
}
