import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { overlaps, spaceHotspots, type Box, type Point } from '@/three/viewer/hotspot-spacing'

const SIZE = 24
const GAP = 4
const boxOf = (p: Point): Box => ({
  x: p.x - SIZE / 2,
  y: p.y - SIZE / 2,
  width: SIZE,
  height: SIZE,
})
const inside = (p: Point, width: number, height: number) =>
  p.x - SIZE / 2 >= -1e-6 &&
  p.y - SIZE / 2 >= -1e-6 &&
  p.x + SIZE / 2 <= width + 1e-6 &&
  p.y + SIZE / 2 <= height + 1e-6

/** A phone's stage (412 px wide, 8:5) up to a desktop's. */
const stage = fc.record({
  width: fc.integer({ min: 300, max: 1200 }),
  height: fc.integer({ min: 190, max: 750 }),
})
const point = (width: number, height: number) =>
  fc.record({
    x: fc.double({ min: -40, max: width + 40, noNaN: true }),
    y: fc.double({ min: -40, max: height + 40, noNaN: true }),
  })

describe('hotspot buttons are spaced', () => {
  test('up to eight buttons anywhere on a stage, an AR button in its top end corner: none overlaps another or the AR button, each whole inside the stage', () => {
    fc.assert(
      fc.property(
        stage.chain(({ width, height }) =>
          fc.record({
            width: fc.constant(width),
            height: fc.constant(height),
            points: fc.array(point(width, height), { minLength: 1, maxLength: 8 }),
            // "View in your room": about 190 × 44 px, 12 px from the top end corner.
            ar: fc.boolean(),
          }),
        ),
        ({ width, height, points, ar }) => {
          const avoid: Box[] = ar ? [{ x: width - 202, y: 12, width: 190, height: 44 }] : []
          const placed = spaceHotspots(points, { size: SIZE, gap: GAP, width, height, avoid })
          expect(placed).toHaveLength(points.length)
          for (const [i, p] of placed.entries()) {
            expect(inside(p, width, height), `button ${i} at ${p.x},${p.y}`).toBe(true)
            for (const box of avoid)
              expect(overlaps(boxOf(p), box), `button ${i} on AR`).toBe(false)
            for (const q of placed.slice(i + 1))
              expect(overlaps(boxOf(p), boxOf(q)), `buttons ${i} and another`).toBe(false)
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  test('buttons with room stay on their points', () => {
    const points = [
      { x: 100, y: 100 },
      { x: 200, y: 120 },
      { x: 150, y: 60 },
    ]
    expect(spaceHotspots(points, { size: SIZE, gap: GAP, width: 412, height: 258 })).toEqual(points)
  })

  test('a button whose place is taken moves to the nearest free place, the first stays', () => {
    const [a, b] = spaceHotspots(
      [
        { x: 200, y: 100 },
        { x: 210, y: 100 },
      ],
      { size: SIZE, gap: GAP, width: 412, height: 258 },
    )
    expect(a).toEqual({ x: 200, y: 100 })
    expect(Math.abs(b!.x - a!.x) >= SIZE + GAP || Math.abs(b!.y - a!.y) >= SIZE + GAP).toBe(true)
    expect(Math.hypot(b!.x - 210, b!.y - 100)).toBeLessThanOrEqual(SIZE + GAP)
  })

  test('a point under the AR button is moved out of it, the shortest way inside the stage', () => {
    const [p] = spaceHotspots([{ x: 380, y: 20 }], {
      size: SIZE,
      gap: GAP,
      width: 412,
      height: 258,
      avoid: [{ x: 210, y: 12, width: 190, height: 44 }],
    })
    expect(p!.y).toBeGreaterThanOrEqual(12 + 44 + GAP + SIZE / 2)
    expect(Math.hypot(p!.x - 380, p!.y - 20)).toBeLessThanOrEqual(44 + GAP + SIZE)
  })
})
