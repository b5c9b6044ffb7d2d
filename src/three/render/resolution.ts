// The renderer's pixel ratio: how many canvas pixels it draws per CSS pixel. Pure rules, kept
// apart so they can be tested without a GPU.

/** Where the renderer may draw: `low` is a software renderer (no usable GPU). */
export type Tier = 'high' | 'low'

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
  if (fps < 45) return Math.min(ceiling, Math.max(MIN_DPR, Math.round(current * 80) / 100))
  if (fps > 57) return Math.max(MIN_DPR, Math.min(ceiling, Math.round(current * 115) / 100))
  return Math.min(current, ceiling)
}
