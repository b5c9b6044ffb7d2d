// An environment file (rules/look.ts) at the size a device needs, as the site's images and
// models are served: `?tier=low|high`, and `&sky=1` when the environment also shows behind the
// model. Light needs few pixels (the renderer prefilters the map to a cube a quarter of its width),
// a backdrop more. Never larger than the upload; an environment asked for without `tier` is the
// file as it is.
import sharp from 'sharp'
import { downsizeHdr, readHdrHeader, writeHdr } from './hdr'

/** Each tier's width, for light alone and for a backdrop. */
export const ENVIRONMENT_WIDTHS = {
  low: { light: 256, sky: 1024 },
  high: { light: 1024, sky: 2048 },
} as const

export type EnvironmentParams = { tier: keyof typeof ENVIRONMENT_WIDTHS; sky: boolean }

/** The formats an environment may be in. */
export type EnvironmentFormat = 'hdr' | 'jpeg' | 'png' | 'avif'

export const ENVIRONMENT_TYPES: Record<EnvironmentFormat, string> = {
  // Radiance's registered type.
  hdr: 'image/vnd.radiance',
  jpeg: 'image/jpeg',
  png: 'image/png',
  avif: 'image/avif',
}

/** An environment's query that sizes it: null when it asks for none (the file as it is). */
export function parseEnvironmentParams(query: URLSearchParams): EnvironmentParams | null {
  const tier = query.get('tier')
  if (tier !== 'low' && tier !== 'high') return null
  return { tier, sky: query.get('sky') === '1' }
}

/** What the bytes are, by their first bytes; null when none of the formats read. */
export function environmentFormat(bytes: Uint8Array): EnvironmentFormat | null {
  const head = Buffer.from(bytes.subarray(0, 16))
  if (head.toString('latin1', 0, 2) === '#?') return 'hdr'
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg'
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png'
  if (head.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]/.test(head.toString('latin1', 8, 12)))
    return 'avif'
  return null
}

/**
 * The width, height and format of an environment file, or a sentence saying why it cannot be
 * read (content:check names the document and the field with it).
 */
export async function inspectEnvironment(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; format: EnvironmentFormat }> {
  const format = environmentFormat(bytes)
  if (!format) throw new Error('it is not a Radiance HDR, JPEG, PNG or AVIF file')
  if (format === 'hdr') {
    const { width, height } = readHdrHeader(bytes)
    return { width, height, format }
  }
  const meta = await sharp(bytes).metadata()
  if (!meta.width || !meta.height) throw new Error('its image size cannot be read')
  return { width: meta.width, height: meta.height, format }
}

/** The variant for `params`: the picture at its tier's width, in its own format. */
export async function makeEnvironmentVariant(
  bytes: Uint8Array,
  params: EnvironmentParams,
): Promise<{ body: Uint8Array; type: string }> {
  const format = environmentFormat(bytes)
  if (!format) throw new Error('not a Radiance HDR, JPEG, PNG or AVIF file')
  const width = ENVIRONMENT_WIDTHS[params.tier][params.sky ? 'sky' : 'light']
  if (format === 'hdr') {
    const small = downsizeHdr(bytes, width)
    return { body: writeHdr(small.width, small.height, small.rgb), type: ENVIRONMENT_TYPES.hdr }
  }
  const image = sharp(bytes).resize({ width, withoutEnlargement: true })
  const body =
    format === 'jpeg'
      ? await image.jpeg({ quality: 88, mozjpeg: true }).toBuffer()
      : format === 'png'
        ? await image.png({ compressionLevel: 9 }).toBuffer()
        : await image.avif({ quality: 62, effort: 3 }).toBuffer()
  return { body: new Uint8Array(body), type: ENVIRONMENT_TYPES[format] }
}
