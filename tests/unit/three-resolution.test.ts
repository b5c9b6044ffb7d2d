import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { dprCeiling, MIN_DPR, nextDpr, startDpr } from '@/three/render/resolution'

const ratio = fc.double({ min: 0.25, max: 4, noNaN: true })
const fps = fc.double({ min: 0, max: 240, noNaN: true })

describe("the renderer's pixel ratio", () => {
  it('follows the display up to 2 on a GPU, and stays at 1 on a software renderer', () => {
    expect(dprCeiling(1, 'high')).toBe(1)
    expect(dprCeiling(1.75, 'high')).toBe(1.75)
    expect(dprCeiling(3, 'high')).toBe(2)
    expect(dprCeiling(3, 'low')).toBe(1)
    // A zoomed-out page reports less than 1: the canvas still draws a pixel per CSS pixel.
    expect(dprCeiling(0.67, 'high')).toBe(1)
    expect(startDpr(dprCeiling(3, 'high'))).toBe(1.5)
    expect(startDpr(dprCeiling(1.25, 'high'))).toBe(1.25)
  })

  it('lowers the ratio while frames are slow, raises it when they are fast, within bounds', () => {
    expect(nextDpr(1.5, 30, 2)).toBe(1.2)
    expect(nextDpr(1.2, 30, 2)).toBe(0.96)
    expect(nextDpr(0.55, 10, 2)).toBe(MIN_DPR)
    expect(nextDpr(1, 60, 2)).toBe(1.15)
    expect(nextDpr(1.9, 60, 2)).toBe(2)
    expect(nextDpr(1.2, 50, 2)).toBe(1.2)
  })

  it('never leaves [0.5, ceiling], and moves only the way the frame rate asks', () => {
    fc.assert(
      fc.property(ratio, fps, fc.constantFrom(1, 1.5, 1.75, 2), (current, rate, ceiling) => {
        const next = nextDpr(current, rate, ceiling)
        expect(next).toBeGreaterThanOrEqual(MIN_DPR)
        expect(next).toBeLessThanOrEqual(ceiling)
        // Slow frames never raise it, fast frames never lower it (unless above the ceiling).
        if (rate < 45) expect(next).toBeLessThanOrEqual(Math.max(current, MIN_DPR))
        if (rate > 57 && current <= ceiling) expect(next).toBeGreaterThanOrEqual(current)
      }),
      // Found by this property once: a ratio below the floor, frames in the steady band.
      { examples: [[0.25, 45, 1]] },
    )
  })

  it('settles at the floor when frames stay slow, and at the ceiling when they stay fast', () => {
    let dpr = 1.5
    for (let i = 0; i < 20; i++) dpr = nextDpr(dpr, 20, 2)
    expect(dpr).toBe(MIN_DPR)
    for (let i = 0; i < 20; i++) dpr = nextDpr(dpr, 60, 2)
    expect(dpr).toBe(2)
  })
})
