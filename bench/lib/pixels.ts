import sharp from 'sharp'

/**
 * The share of pixels (%, two decimals) that differ between two PNGs of one box: a pixel counts
 * when its red, green and blue differ by more than 30 together (the benches' measure of a
 * setting's or a button's effect on the drawn stage; tests/e2e/three-helpers.ts has the tests').
 */
export async function changedPercent(a: Buffer, b: Buffer): Promise<number> {
  const raw = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer()
  const [x, y] = await Promise.all([raw(a), raw(b)])
  let n = 0
  for (let i = 0; i < x.length; i += 3)
    if (
      Math.abs(x[i]! - y[i]!) + Math.abs(x[i + 1]! - y[i + 1]!) + Math.abs(x[i + 2]! - y[i + 2]!) >
      30
    )
      n++
  return Math.round((n / (x.length / 3)) * 10000) / 100
}
