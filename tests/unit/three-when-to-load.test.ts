// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  mayFetchAhead,
  NEAR_MARGIN,
  NETWORK_QUIET_MS,
  QUIET_MS,
  savesData,
  SETTLE_AT_MOST_MS,
  whenEngagedOrQuiet,
  whenNear,
  whenPageSettled,
} from '../../src/three/when-to-load'

// When the 3D may load: at the visitor's first engagement, including one that came before the
// page listened (a scroll while it hydrated), or once the loaded page has been quiet.
describe('whenEngagedOrQuiet', () => {
  afterEach(() => {
    vi.useRealTimers()
    window.scrollTo(0, 0)
  })

  it('waits at the top of a loaded page, then fires at the first scroll', () => {
    vi.useFakeTimers()
    const fired = vi.fn()
    const cancel = whenEngagedOrQuiet(fired)
    vi.advanceTimersByTime(QUIET_MS - 1)
    expect(fired).not.toHaveBeenCalled()
    window.dispatchEvent(new Event('scroll'))
    expect(fired).toHaveBeenCalledTimes(1)
    window.dispatchEvent(new Event('keydown'))
    vi.advanceTimersByTime(QUIET_MS * 2)
    expect(fired).toHaveBeenCalledTimes(1)
    cancel()
  })

  it('fires after the quiet window when nobody engages', () => {
    vi.useFakeTimers()
    const fired = vi.fn()
    const cancel = whenEngagedOrQuiet(fired)
    vi.advanceTimersByTime(QUIET_MS)
    expect(fired).toHaveBeenCalledTimes(1)
    cancel()
  })

  it('fires at once for a visitor who scrolled before it listened', async () => {
    vi.useFakeTimers()
    window.scrollTo(0, 600)
    expect(window.scrollY).toBe(600)
    const fired = vi.fn()
    whenEngagedOrQuiet(fired)
    expect(fired).not.toHaveBeenCalled() // not within the caller's own setup
    await Promise.resolve()
    expect(fired).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(QUIET_MS * 2)
    expect(fired).toHaveBeenCalledTimes(1)
  })

  it('waits at the top though the page has a user activation (as automation gives it)', async () => {
    vi.useFakeTimers()
    Object.defineProperty(navigator, 'userActivation', {
      value: { hasBeenActive: true, isActive: false },
      configurable: true,
    })
    try {
      const fired = vi.fn()
      const cancel = whenEngagedOrQuiet(fired)
      await Promise.resolve()
      vi.advanceTimersByTime(QUIET_MS - 1)
      expect(fired).not.toHaveBeenCalled()
      cancel()
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation
    }
  })

  it('a cancelled wait never fires, however the visitor engaged', async () => {
    window.scrollTo(0, 600)
    const early = vi.fn()
    whenEngagedOrQuiet(early)()
    await Promise.resolve()
    expect(early).not.toHaveBeenCalled()

    window.scrollTo(0, 0)
    const late = vi.fn()
    whenEngagedOrQuiet(late)()
    window.dispatchEvent(new Event('scroll'))
    expect(late).not.toHaveBeenCalled()
  })
})

// When the 3D is warmed up before engagement: the slot within a viewport of the screen, and only
// once the page has loaded and its main thread is idle.
describe('whenNear', () => {
  type Watch = { callback: IntersectionObserverCallback; options?: IntersectionObserverInit }
  let watches: Watch[] = []
  let observed: Element[] = []
  let disconnected = 0
  class FakeObserver {
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      watches.push({ callback, options })
    }
    observe(element: Element) {
      observed.push(element)
    }
    disconnect() {
      disconnected++
    }
  }
  /** The browser says whether the element is within the margin now. */
  const intersect = (isIntersecting: boolean) =>
    watches
      .at(-1)!
      .callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver)

  beforeEach(() => {
    watches = []
    observed = []
    disconnected = 0
    vi.useFakeTimers()
    vi.stubGlobal('IntersectionObserver', FakeObserver)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    delete (document as { readyState?: unknown }).readyState
  })

  it('watches a loaded page at its next idle moment, and fires once the element is within a viewport', () => {
    const element = document.createElement('div')
    const fired = vi.fn()
    const cancel = whenNear(element, fired)
    expect(watches).toHaveLength(0) // not in the page's own task
    vi.advanceTimersByTime(2000)
    expect(observed).toEqual([element])
    expect(watches[0]!.options?.rootMargin).toBe(NEAR_MARGIN)
    intersect(false)
    expect(fired).not.toHaveBeenCalled()
    intersect(true)
    expect(fired).toHaveBeenCalledTimes(1)
    expect(disconnected).toBe(1)
    intersect(true)
    expect(fired).toHaveBeenCalledTimes(1)
    cancel()
  })

  it('waits for the page to load first', () => {
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true })
    const fired = vi.fn()
    const cancel = whenNear(document.createElement('div'), fired)
    vi.advanceTimersByTime(10_000)
    expect(watches).toHaveLength(0)
    window.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(2000)
    expect(watches).toHaveLength(1)
    intersect(true)
    expect(fired).toHaveBeenCalledTimes(1)
    cancel()
  })

  it('does not wait for the network to go quiet: a resource that just ended does not hold it', () => {
    // The page's scripts ended a moment ago, as on a phone's network 1–2 s after `load`.
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { responseEnd: performance.now() } as PerformanceResourceTiming,
    ])
    const fired = vi.fn()
    const cancel = whenNear(document.createElement('div'), fired)
    vi.advanceTimersByTime(1) // the next idle moment (a task, where there is no requestIdleCallback)
    expect(watches).toHaveLength(1)
    intersect(true)
    expect(fired).toHaveBeenCalledTimes(1)
    cancel()
    vi.restoreAllMocks()
  })

  it('a cancelled wait never watches, or never fires', () => {
    const fired = vi.fn()
    whenNear(document.createElement('div'), fired)()
    vi.advanceTimersByTime(2000)
    expect(watches).toHaveLength(0)

    const cancel = whenNear(document.createElement('div'), fired)
    vi.advanceTimersByTime(2000)
    cancel()
    intersect(true)
    expect(fired).not.toHaveBeenCalled()
  })
})

// The warm-up starts once the page's own bytes are in: no resource finished for a while.
describe('whenPageSettled', () => {
  let report: (() => void) | undefined
  class FakePerformanceObserver {
    static supportedEntryTypes = ['resource']
    constructor(callback: () => void) {
      report = callback
    }
    observe() {}
    disconnect() {
      report = undefined
    }
  }
  beforeEach(() => {
    report = undefined
    vi.useFakeTimers()
    vi.stubGlobal('PerformanceObserver', FakePerformanceObserver)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('fires a quiet window after the last resource the page loaded, not before', () => {
    const fired = vi.fn()
    const cancel = whenPageSettled(fired)
    vi.advanceTimersByTime(NETWORK_QUIET_MS - 100)
    report!() // a lazy image ends
    vi.advanceTimersByTime(NETWORK_QUIET_MS - 100)
    report!() // then the next route's data
    vi.advanceTimersByTime(NETWORK_QUIET_MS - 1)
    expect(fired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1 + 2000) // quiet, then idle
    expect(fired).toHaveBeenCalledTimes(1)
    expect(report).toBeUndefined() // stopped listening
    cancel()
  })

  it('a page that is never quiet gets its warm-up all the same, once', () => {
    const fired = vi.fn()
    const busy = setInterval(() => report?.(), NETWORK_QUIET_MS / 2)
    whenPageSettled(fired)
    vi.advanceTimersByTime(SETTLE_AT_MOST_MS - 1)
    expect(fired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1 + 2000)
    expect(fired).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(SETTLE_AT_MOST_MS)
    expect(fired).toHaveBeenCalledTimes(1)
    clearInterval(busy)
  })

  it('a cancelled wait never fires', () => {
    const fired = vi.fn()
    whenPageSettled(fired)()
    vi.advanceTimersByTime(SETTLE_AT_MOST_MS + 2000)
    expect(fired).not.toHaveBeenCalled()
  })
})

// Nothing is fetched ahead for a visitor who saves data or is on 2G (the Network Information API).
describe('mayFetchAhead and savesData', () => {
  const on = (connection: object | undefined) =>
    Object.defineProperty(navigator, 'connection', { value: connection, configurable: true })
  afterEach(() => {
    delete (navigator as { connection?: unknown }).connection
  })

  it('fetch ahead where the browser says nothing, and on 3G, 4G', () => {
    on(undefined)
    expect([mayFetchAhead(), savesData()]).toEqual([true, false])
    for (const effectiveType of ['3g', '4g']) {
      on({ effectiveType, saveData: false })
      expect(mayFetchAhead()).toBe(true)
    }
  })

  it('not with Save-Data, nor on 2G or slow 2G', () => {
    on({ effectiveType: '4g', saveData: true })
    expect([mayFetchAhead(), savesData()]).toEqual([false, true])
    for (const effectiveType of ['2g', 'slow-2g']) {
      on({ effectiveType, saveData: false })
      expect([mayFetchAhead(), savesData()]).toEqual([false, false])
    }
  })
})
