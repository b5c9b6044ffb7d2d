// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { motionPaused, setMotionPaused, subscribeMotion } from '../../src/three/viewer/motion'

/** A system setting for reduced motion, as `matchMedia` answers it. */
function reducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

afterEach(() => {
  window.sessionStorage.clear()
  vi.unstubAllGlobals()
})

describe("the visitor's pause of the 3D that moves by itself", () => {
  it('plays at first, and starts paused for a visitor who asked for reduced motion', () => {
    reducedMotion(false)
    expect(motionPaused()).toBe(false)
    reducedMotion(true)
    expect(motionPaused()).toBe(true)
  })

  it('keeps the choice for the visit, over the system setting, and tells every listener', () => {
    reducedMotion(true)
    const heard = vi.fn()
    const stop = subscribeMotion(heard)
    setMotionPaused(false)
    expect(motionPaused()).toBe(false)
    expect(window.sessionStorage.getItem('facet:3d-motion')).toBe('playing')
    setMotionPaused(true)
    expect(motionPaused()).toBe(true)
    expect(heard).toHaveBeenCalledTimes(2)
    stop()
    setMotionPaused(false)
    expect(heard).toHaveBeenCalledTimes(2)
  })

  it('keeps the choice on the page when the browser refuses storage', () => {
    reducedMotion(false)
    vi.spyOn(window.sessionStorage, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError')
    })
    vi.spyOn(window.sessionStorage, 'setItem').mockImplementation(() => {
      throw new Error('SecurityError')
    })
    setMotionPaused(true)
    expect(motionPaused()).toBe(true)
    vi.restoreAllMocks()
  })
})
