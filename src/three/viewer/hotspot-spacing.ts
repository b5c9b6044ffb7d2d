// Where a live viewer's hotspot buttons stand (HotspotLayer.tsx): at the renderer's places, moved
// apart where two would meet, out of what lies over the stage (the AR button, an editor's note),
// and inside the stage. The renderer projects each hotspot's point wherever the camera puts it;
// two points close in the picture (a turn, a zoom out, a phone's small stage) would put one
// button over another, and a point near the stage's edge would put a button under the AR button
// or half outside. Written by hand: a few boxes pushed apart, each frame, with no layout of
// their own; no library does this small a job without a physics engine.

/** A box in the stage's CSS pixels, from its top left corner. */
export type Box = { x: number; y: number; width: number; height: number }

/** A button's centre, in the same pixels. */
export type Point = { x: number; y: number }

export type SpacingOptions = {
  /** The buttons' side (they are square boxes). */
  size: number
  /** The least room between two buttons, and between a button and a box to avoid. */
  gap: number
  /** The stage's size: every button stays whole inside it. */
  width: number
  height: number
  /** Boxes over the stage that no button may cover. */
  avoid?: Box[]
}

/** The directions tried on each ring around a point that is taken, a twelfth of a turn apart. */
const DIRECTIONS = Array.from({ length: 12 }, (_, i) => ({
  x: Math.cos((i * Math.PI) / 6),
  y: Math.sin((i * Math.PI) / 6),
}))

const clamp = (value: number, low: number, high: number) =>
  high < low ? (low + high) / 2 : Math.min(high, Math.max(low, value))

/**
 * The buttons' centres, each as near its own point as the buttons before it and the boxes to
 * avoid allow: a button whose place is taken moves to the nearest free place on rings around it,
 * a third of a button apart. Where the stage has room for them all, no two buttons overlap (with
 * `gap` between them), none covers a box to avoid, and each is whole inside the stage. Where it
 * has none (more buttons than room), a button stays as near its point as it can.
 */
export function spaceHotspots(points: readonly Point[], options: SpacingOptions): Point[] {
  const { size, gap, width, height, avoid = [] } = options
  const half = size / 2
  const keepIn = (p: Point): Point => ({
    x: clamp(p.x, half, width - half),
    y: clamp(p.y, half, height - half),
  })
  const placed: Point[] = []
  // Free: apart from every button placed (as squares, on either axis) and every box to avoid.
  const free = (p: Point) =>
    placed.every((q) => Math.abs(p.x - q.x) >= size + gap || Math.abs(p.y - q.y) >= size + gap) &&
    avoid.every(
      (box) =>
        p.x <= box.x - gap - half ||
        p.x >= box.x + box.width + gap + half ||
        p.y <= box.y - gap - half ||
        p.y >= box.y + box.height + gap + half,
    )
  const step = size / 3
  const farthest = Math.hypot(width, height)
  for (const point of points) {
    const own = keepIn(point)
    let found: Point | undefined = free(own) ? own : undefined
    for (let radius = step; !found && radius <= farthest; radius += step) {
      let best: Point | undefined
      let bestDistance = Infinity
      for (const d of DIRECTIONS) {
        const candidate = keepIn({ x: own.x + d.x * radius, y: own.y + d.y * radius })
        const distance = Math.hypot(candidate.x - point.x, candidate.y - point.y)
        if (distance < bestDistance && free(candidate)) {
          best = candidate
          bestDistance = distance
        }
      }
      found = best
    }
    placed.push(found ?? own)
  }
  return placed
}

/** Whether two boxes overlap (touching edges do not). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
