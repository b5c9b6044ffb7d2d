// SSIM (Wang et al. 2004) between two read-backs of a stage, on greyscale, 8 × 8 windows every 4
// px, with the paper's constants, over the windows where a render shows the model: the look tests
// compare renders by it (three-variants.spec.ts: a model's tier variants; three-look.spec.ts: the
// two render paths under the same art direction).
import { expect } from '@playwright/test'
import type { Pixels } from '../three-helpers'

/** Rec. 601 luma of each pixel of an RGB read-back. */
export function grey({ data, width, height }: Pixels): Float64Array {
  const out = new Float64Array(width * height)
  for (let i = 0; i < out.length; i++)
    out[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!
  return out
}

const WINDOW = 8
const STRIDE = 4

/** The windows (by their top-left pixel) where any of `renders` differs from the bare stage. */
export function modelMask(bare: Pixels, renders: Pixels[]): number[] {
  for (const render of renders)
    expect([render.width, render.height]).toEqual([bare.width, bare.height])
  const windows: number[] = []
  const { width, height } = bare
  for (let y = 0; y + WINDOW <= height; y += STRIDE)
    for (let x = 0; x + WINDOW <= width; x += STRIDE) {
      let drawn = false
      for (let dy = 0; dy < WINDOW && !drawn; dy++)
        for (let dx = 0; dx < WINDOW && !drawn; dx++) {
          const i = ((y + dy) * width + x + dx) * 3
          drawn = renders.some(
            ({ data }) =>
              Math.abs(data[i]! - bare.data[i]!) +
                Math.abs(data[i + 1]! - bare.data[i + 1]!) +
                Math.abs(data[i + 2]! - bare.data[i + 2]!) >
              30,
          )
        }
      if (drawn) windows.push(y * width + x)
    }
  // The model fills a fair part of the stage: a mask of a few windows would prove nothing.
  expect(windows.length, 'windows showing the model').toBeGreaterThan(200)
  return windows
}

/** Mean SSIM of two same-sized read-backs over the windows of `mask`. */
export function ssim(a: Pixels, b: Pixels, mask: number[]): number {
  const [x, y] = [grey(a), grey(b)]
  const C1 = (0.01 * 255) ** 2
  const C2 = (0.03 * 255) ** 2
  const n = WINDOW * WINDOW
  let total = 0
  for (const start of mask) {
    let [sx, sy, sxx, syy, sxy] = [0, 0, 0, 0, 0]
    for (let dy = 0; dy < WINDOW; dy++)
      for (let dx = 0; dx < WINDOW; dx++) {
        const i = start + dy * a.width + dx
        const [p, q] = [x[i]!, y[i]!]
        sx += p
        sy += q
        sxx += p * p
        syy += q * q
        sxy += p * q
      }
    const [mx, my] = [sx / n, sy / n]
    const vx = sxx / n - mx * mx
    const vy = syy / n - my * my
    const cov = sxy / n - mx * my
    total += ((2 * mx * my + C1) * (2 * cov + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2))
  }
  return total / mask.length
}

/** Mean absolute difference in grey levels over the windows of `mask` (reported, not bounded). */
export function meanDifference(a: Pixels, b: Pixels, mask: number[]): number {
  const [x, y] = [grey(a), grey(b)]
  let [sum, count] = [0, 0]
  for (const start of mask)
    for (let dy = 0; dy < WINDOW; dy++)
      for (let dx = 0; dx < WINDOW; dx++) {
        const i = start + dy * a.width + dx
        sum += Math.abs(x[i]! - y[i]!)
        count++
      }
  return sum / count
}
