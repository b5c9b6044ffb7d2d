import { strFromU8 } from 'fflate'

/**
 * A zip's local file headers, in order: name, compression method, where the data starts, size.
 * Read from the bytes as they are, since what a USDZ must be (stored, 64-byte aligned, the layer
 * first) is about the layout, which an unzip library does not report.
 */
export function localFiles(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const files: { name: string; method: number; dataOffset: number; size: number }[] = []
  let at = 0
  while (view.getUint32(at, true) === 0x04034b50) {
    const method = view.getUint16(at + 8, true)
    const size = view.getUint32(at + 18, true)
    const nameLength = view.getUint16(at + 26, true)
    const extraLength = view.getUint16(at + 28, true)
    const name = strFromU8(bytes.subarray(at + 30, at + 30 + nameLength))
    const dataOffset = at + 30 + nameLength + extraLength
    files.push({ name, method, dataOffset, size })
    at = dataOffset + size
  }
  return files
}
