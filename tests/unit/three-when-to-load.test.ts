// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { QUIET_MS, whenEngagedOrQuiet } from '../../src/three/when-to-load'

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
