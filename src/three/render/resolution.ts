// The renderer's pixel ratio: how many canvas pixels it draws per CSS pixel. Pure rules, kept
// apart so they can be tested without a GPU.

/** Where the renderer may draw: `low` is a software renderer (no usable GPU), or a slow GPU. */
export type Tier = 'high' | 'low'

/**
 * The GPU probe's budget for one draw (gpu-probe.ts: a 384 × 384 target, 48 trigonometric steps
 * a pixel, read back). A phone GPU does the arithmetic in a few milliseconds at most, and the
 * read-back's round trip adds about one; SwiftShader took about 30 ms here (2 busy cores), five
 * times the budget, so a software renderer stays above it on a machine a few times faster,
 * whatever name it reports (SwiftShader, llvmpipe, WebKit's "Apple GPU").
 */
export const LOW_TIER_PROBE_MS = 6

/**
 * The tier from what the device did, not from what its renderer is called: the median time of the
 * probe's draws after the first (which carries the shader compile). No usable measure (none, or
 * not a finite time) gives the low tier: a device that cannot be timed is not trusted with more.
 */
export function tierFromProbe(samplesMs: readonly number[]): Tier {
  const timed = samplesMs.slice(1)
  if (!timed.length || timed.some((ms) => !Number.isFinite(ms) || ms < 0)) return 'low'
  return median(timed) > LOW_TIER_PROBE_MS ? 'low' : 'high'
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Never fewer canvas pixels per CSS pixel than this, however slow the frames. */
export const MIN_DPR = 0.5

/**
 * The highest pixel ratio the renderer uses on this display: the display's own, up to 2 (beyond,
 * the extra pixels cost more than they show); 1 on a software renderer.
 */
export function dprCeiling(deviceDpr: number, tier: Tier): number {
  if (tier === 'low') return 1
  return Math.min(Math.max(deviceDpr || 1, 1), 2)
}

/** The pixel ratio a renderer starts at, and returns to when the display changes. */
export function startDpr(ceiling: number): number {
  return Math.min(ceiling, 1.5)
}

/**
 * Adaptive resolution: 20 % fewer pixels per side while frames come slower than 45 a second,
 * 15 % more when they come faster than 57, within [MIN_DPR, ceiling]; unchanged in between.
 */
export function nextDpr(current: number, fps: number, ceiling: number): number {
  const next =
    fps < 45 ? Math.round(current * 80) / 100 : fps > 57 ? Math.round(current * 115) / 100 : current
  // One clamp for the three cases; the floor wins over a ceiling below it (none is: see dprCeiling).
  return Math.max(MIN_DPR, Math.min(ceiling, next))
}
