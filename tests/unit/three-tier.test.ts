import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { LOW_TIER_PROBE_MS, median, tierFromProbe } from '@/three/render/resolution'
import { onCanvas } from '@/three/render/scene-store'

const ms = fc.double({ min: 0, max: 500, noNaN: true })
/** The probe's draws: the first (with the compile), then at least one timed draw. */
const samples = fc.tuple(ms, fc.array(ms, { minLength: 1, maxLength: 8 }))

describe('the quality tier, from what the device does', () => {
  it('is low for software-renderer times and high for GPU times', () => {
    // Figures of the kind measured here: SwiftShader in headless Chromium, and a phone GPU.
    expect(tierFromProbe([120, 9.8, 11.2, 10.4])).toBe('low')
    expect(tierFromProbe([35, 0.6, 0.9, 0.7])).toBe('high')
    // The threshold itself still passes; just above it does not.
    expect(tierFromProbe([50, LOW_TIER_PROBE_MS, LOW_TIER_PROBE_MS])).toBe('high')
    expect(tierFromProbe([50, LOW_TIER_PROBE_MS + 0.01, LOW_TIER_PROBE_MS + 0.01])).toBe('low')
  })

  it('is low when the device could not be timed', () => {
    expect(tierFromProbe([])).toBe('low')
    expect(tierFromProbe([0.5])).toBe('low')
    expect(tierFromProbe([1, NaN, 0.5, 0.5])).toBe('low')
    expect(tierFromProbe([1, Infinity, 0.5])).toBe('low')
    expect(tierFromProbe([1, -1, 0.5])).toBe('low')
  })

  it('follows the median of the timed draws: the first draw (the compile) never counts', () => {
    fc.assert(
      fc.property(samples, ms, ([, timed], first) => {
        const tier = tierFromProbe([first, ...timed])
        expect(tier).toBe(median(timed) > LOW_TIER_PROBE_MS ? 'low' : 'high')
      }),
    )
  })

  it('does not depend on the order of the timed draws', () => {
    fc.assert(
      fc.property(samples, fc.integer({ min: 0, max: 1000 }), ([first, timed], seed) => {
        const shuffled = [...timed].sort(
          (a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13),
        )
        expect(tierFromProbe([first, ...shuffled])).toBe(tierFromProbe([first, ...timed]))
      }),
    )
  })

  it('never gets higher when every draw gets slower', () => {
    fc.assert(
      fc.property(samples, fc.double({ min: 1, max: 100, noNaN: true }), ([first, timed], k) => {
        const fast = tierFromProbe([first, ...timed])
        const slow = tierFromProbe([first, ...timed.map((t) => t * k)])
        if (fast === 'low') expect(slow).toBe('low')
      }),
    )
  })

  it('one slow outlier among fast draws does not make a GPU low, nor one fast draw a CPU high', () => {
    expect(tierFromProbe([40, 0.5, 30, 0.6])).toBe('high')
    expect(tierFromProbe([40, 12, 0.5, 11])).toBe('low')
  })
})

describe('a slot on the canvas', () => {
  const canvas = { width: 412, height: 823 }
  it('is drawn when any of it is on the canvas, and not when none is', () => {
    expect(onCanvas({ left: 0, top: 0, width: 412, height: 275 }, 412, 823)).toBe(true)
    expect(onCanvas({ left: 0, top: -274, width: 412, height: 275 }, 412, 823)).toBe(true)
    expect(onCanvas({ left: 0, top: -275, width: 412, height: 275 }, 412, 823)).toBe(false)
    expect(onCanvas({ left: 0, top: 823, width: 412, height: 275 }, 412, 823)).toBe(false)
    expect(onCanvas({ left: 0, top: 10, width: 0, height: 275 }, 412, 823)).toBe(false)
  })

  it('agrees with the overlap of the two boxes', () => {
    const coordinate = fc.integer({ min: -2000, max: 2000 })
    const extent = fc.integer({ min: 0, max: 2000 })
    fc.assert(
      fc.property(coordinate, coordinate, extent, extent, (left, top, width, height) => {
        const overlapX = Math.min(left + width, canvas.width) - Math.max(left, 0)
        const overlapY = Math.min(top + height, canvas.height) - Math.max(top, 0)
        expect(onCanvas({ left, top, width, height }, canvas.width, canvas.height)).toBe(
          overlapX > 0 && overlapY > 0,
        )
      }),
    )
  })
})
