import sharp, { type Sharp } from 'sharp'
import type { ImagePlan, SourceInfo } from './plan'

/** The content type of each output format. */
export const FORMAT_TYPES: Record<ImagePlan['format'], string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
}

/**
 * Sources larger than this many pixels are refused (sharp's own default, 268 MP): a 16000 × 9000
 * photograph (144 MP) passes, a decompression bomb does not.
 */
const MAX_INPUT_PIXELS = 0x3fff * 0x3fff

/** Width, height (after EXIF orientation), format and alpha of a source file. */
export async function readSource(file: string): Promise<SourceInfo> {
  const meta = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  return {
    width: meta.autoOrient?.width ?? meta.width ?? 0,
    height: meta.autoOrient?.height ?? meta.height ?? 0,
    format: meta.format === 'heif' ? 'avif' : (meta.format ?? 'unknown'),
    hasAlpha: meta.hasAlpha ?? false,
  }
}

function encode(image: Sharp, plan: ImagePlan): Sharp {
  const quality = Math.max(1, plan.quality)
  switch (plan.format) {
    case 'avif':
      // effort 3 (of 9). Measured on the sample photographs at 828 px: effort 4 takes 560–720 ms
      // a render on this project's 2-core machine, effort 3 210–250 ms, for files 7–8 % larger.
      // A page's first visitor waits for these renders (each is made once, then kept), so the
      // third of the time is worth more than the bytes.
      return image.avif({ quality, effort: 3 })
    case 'webp':
      return image.webp({ quality, effort: 4 })
    case 'png':
      // PNG8 under compression, as imgix serves transparent images under auto=compress.
      return image.png({ palette: plan.quality < 100, quality, compressionLevel: 9 })
    default:
      return image.jpeg({ quality, mozjpeg: true })
  }
}

/** Makes one variant: cut, resize, encode. Metadata is dropped (sharp's default), as imgix does
 * under auto=compress. */
export async function renderVariant(file: string, plan: ImagePlan): Promise<Buffer> {
  // Oriented before the cut: sharp keeps the order of autoOrient() and extract().
  let image = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).autoOrient()
  if (plan.extract) image = image.extract(plan.extract)
  const r = plan.resize
  if (r?.withoutEnlargement) {
    image = image
      .resize(plan.width, plan.height, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: r.background })
    // The padding is added around the image once it is its final size.
    image = sharp(await image.toBuffer())
    const { width = plan.width, height = plan.height } = await image.metadata()
    const left = Math.floor((plan.width - width) / 2)
    const top = Math.floor((plan.height - height) / 2)
    image = image.extend({
      left,
      right: plan.width - width - left,
      top,
      bottom: plan.height - height - top,
      background: r.background,
    })
  } else if (r) {
    image = image.resize(plan.width, plan.height, {
      fit: r.fit,
      position: r.position,
      background: r.background,
    })
  }
  return encode(image, plan).toBuffer()
}
