// Radiance HDR (RGBE, `.hdr`) files: their header, and a smaller copy, for the environment an
// editor uploads (rules/look.ts). A studio's HDR is often 4K to 16K wide and tens of
// megabytes; a phone needs a few hundred pixels of it to light a model. The copy is made while the
// file is read, one scanline at a time, into the smaller picture's sums (a box filter), so a
// 30 MB file never sits in memory as floats.
//
// Hand-written: the format is a short header and run-length-coded scanlines (Greg Ward's, as
// three's HDRLoader reads it), and no maintained npm library writes it, nor reads it a scanline at
// a time. sharp's libvips has no Radiance loader in its prebuilt binaries.

/** What the header says. */
export type HdrInfo = { width: number; height: number; dataStart: number }

/** Why a file is not a Radiance HDR the site reads. */
export class HdrError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HdrError'
  }
}

/** The largest side read (a 16K by 8K equirectangular is the largest studios publish). */
export const HDR_MAX_SIDE = 16_384

/**
 * Reads the header: the magic line, the format (RGBE only), and the resolution line, which must
 * be the standard `-Y height +X width` (rows top to bottom, pixels left to right), as three's
 * HDRLoader requires.
 */
export function readHdrHeader(bytes: Uint8Array): HdrInfo {
  let at = 0
  const line = () => {
    const end = bytes.indexOf(0x0a, at)
    if (end < 0 || end - at > 4096) throw new HdrError('the header does not end')
    const text = Buffer.from(bytes.subarray(at, end)).toString('latin1')
    at = end + 1
    return text
  }
  const magic = line()
  if (!/^#\?(RADIANCE|RGBE)/.test(magic))
    throw new HdrError('it does not start with #?RADIANCE: not a Radiance HDR file')
  for (;;) {
    const text = line()
    if (text.trim() === '') break
    const format = /^FORMAT=(.*)$/.exec(text)
    if (format && format[1]!.trim() !== '32-bit_rle_rgbe')
      throw new HdrError(`its format is ${format[1]!.trim()}: only 32-bit_rle_rgbe is read`)
  }
  const size = /^\s*-Y\s+(\d+)\s+\+X\s+(\d+)\s*$/.exec(line())
  if (!size) throw new HdrError('its resolution line is not "-Y height +X width"')
  const height = Number(size[1])
  const width = Number(size[2])
  if (!(width > 0 && height > 0) || width > HDR_MAX_SIDE || height > HDR_MAX_SIDE)
    throw new HdrError(`it is ${width} × ${height}: at most ${HDR_MAX_SIDE} pixels a side`)
  return { width, height, dataStart: at }
}

/** Calls `row(y, rgbe)` for each scanline, top to bottom (`rgbe`: 4 bytes a pixel, reused). */
function readScanlines(
  bytes: Uint8Array,
  info: HdrInfo,
  row: (y: number, rgbe: Uint8Array) => void,
) {
  const { width, height } = info
  const rgbe = new Uint8Array(width * 4)
  const channel = new Uint8Array(width)
  let at = info.dataStart
  const need = (n: number) => {
    if (at + n > bytes.length) throw new HdrError('the file ends before its last scanline')
  }
  for (let y = 0; y < height; y++) {
    need(4)
    const rle =
      width >= 8 &&
      width <= 0x7fff &&
      bytes[at] === 2 &&
      bytes[at + 1] === 2 &&
      !(bytes[at + 2]! & 0x80)
    if (!rle) {
      // A flat scanline: the pixels' four bytes as they are.
      need(width * 4)
      rgbe.set(bytes.subarray(at, at + width * 4))
      at += width * 4
    } else {
      if (((bytes[at + 2]! << 8) | bytes[at + 3]!) !== width)
        throw new HdrError(`scanline ${y} is not ${width} pixels wide`)
      at += 4
      // Each channel in turn: runs (a count over 128, then the byte) and literal stretches.
      for (let c = 0; c < 4; c++) {
        let x = 0
        while (x < width) {
          need(1)
          let count = bytes[at++]!
          if (count > 128) {
            count -= 128
            need(1)
            if (count === 0 || x + count > width) throw new HdrError(`scanline ${y} overruns`)
            channel.fill(bytes[at++]!, x, x + count)
          } else {
            if (count === 0 || x + count > width) throw new HdrError(`scanline ${y} overruns`)
            need(count)
            channel.set(bytes.subarray(at, at + count), x)
            at += count
          }
          x += count
        }
        for (let i = 0; i < width; i++) rgbe[i * 4 + c] = channel[i]!
      }
    }
    row(y, rgbe)
  }
}

/** One RGBE pixel's linear value of one channel. */
const decode = (byte: number, exponent: number) =>
  exponent === 0 ? 0 : (byte + 0.5) * 2 ** (exponent - 136)

/**
 * The picture at `width` pixels wide (the height in proportion), averaged from the file's pixels
 * (a box filter, in linear light): a copy never larger than the file's. Its pixels as linear RGB.
 */
export function downsizeHdr(
  bytes: Uint8Array,
  wantedWidth: number,
): { width: number; height: number; rgb: Float32Array } {
  const info = readHdrHeader(bytes)
  const width = Math.max(1, Math.min(info.width, Math.round(wantedWidth)))
  const height = Math.max(1, Math.round((info.height * width) / info.width))
  const sums = new Float32Array(width * height * 3)
  const counts = new Uint32Array(width * height)
  const column = new Uint32Array(info.width)
  for (let x = 0; x < info.width; x++) column[x] = Math.floor((x * width) / info.width)
  readScanlines(bytes, info, (y, rgbe) => {
    const out = Math.floor((y * height) / info.height) * width
    for (let x = 0; x < info.width; x++) {
      const e = rgbe[x * 4 + 3]!
      const o = out + column[x]!
      sums[o * 3] += decode(rgbe[x * 4]!, e)
      sums[o * 3 + 1] += decode(rgbe[x * 4 + 1]!, e)
      sums[o * 3 + 2] += decode(rgbe[x * 4 + 2]!, e)
      counts[o]!++
    }
  })
  for (let o = 0; o < counts.length; o++) {
    const n = counts[o]! || 1
    sums[o * 3] /= n
    sums[o * 3 + 1] /= n
    sums[o * 3 + 2] /= n
  }
  return { width, height, rgb: sums }
}

/** Writes linear RGB pixels as a Radiance HDR (RGBE, run-length-coded scanlines). */
export function writeHdr(width: number, height: number, rgb: Float32Array): Uint8Array {
  const header = Buffer.from(
    `#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y ${height} +X ${width}\n`,
    'latin1',
  )
  const chunks: Uint8Array[] = [header]
  const rgbe = new Uint8Array(width * 4)
  const channel = new Uint8Array(width)
  const rle = width >= 8 && width <= 0x7fff
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!]
      const max = Math.max(r, g, b)
      if (!(max > 1e-32)) {
        rgbe.fill(0, x * 4, x * 4 + 4)
        continue
      }
      const exponent = Math.ceil(Math.log2(max * (1 + 1e-7)))
      const scale = 256 / 2 ** exponent
      rgbe[x * 4] = Math.min(255, Math.floor(r * scale))
      rgbe[x * 4 + 1] = Math.min(255, Math.floor(g * scale))
      rgbe[x * 4 + 2] = Math.min(255, Math.floor(b * scale))
      rgbe[x * 4 + 3] = exponent + 128
    }
    if (!rle) {
      chunks.push(rgbe.slice())
      continue
    }
    const line: number[] = [2, 2, width >> 8, width & 0xff]
    for (let c = 0; c < 4; c++) {
      for (let x = 0; x < width; x++) channel[x] = rgbe[x * 4 + c]!
      encodeRuns(channel, line)
    }
    chunks.push(Uint8Array.from(line))
  }
  return Buffer.concat(chunks)
}

/** One channel's bytes as runs (4 or more alike, up to 127) and literal stretches (up to 128). */
function encodeRuns(data: Uint8Array, out: number[]) {
  let x = 0
  while (x < data.length) {
    // The next run of at least 4 alike, from x.
    let run = x
    let length = 0
    while (run < data.length) {
      length = 1
      while (run + length < data.length && length < 127 && data[run + length] === data[run])
        length++
      if (length >= 4) break
      run++
    }
    // The literal stretch before it.
    while (x < run) {
      const count = Math.min(128, run - x)
      out.push(count)
      for (let i = 0; i < count; i++) out.push(data[x + i]!)
      x += count
    }
    if (run < data.length && length >= 4) {
      out.push(128 + length, data[run]!)
      x = run + length
    }
  }
}
