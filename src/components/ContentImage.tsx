import { preload } from 'react-dom'
import {
  asImageSrc,
  asImageWidthSrcSet,
  isFilled,
  type FilledImageFieldImage,
  type ImageField,
} from '@prismicio/client'
import { mediaSrcSet, mediaUrl } from '@/lib/content/media-url'
import { SRCSET_WIDTHS } from '@/lib/content/srcset-widths'

type Props = {
  field: ImageField | null | undefined
  /** Set for decorative images only: the CMS alt text is used otherwise. */
  decorative?: boolean
  className?: string
  /** The `sizes` attribute: how wide the image shows at each viewport width. */
  sizes?: string
  /** The LCP image: preloaded from the head, fetched first, never lazy. */
  priority?: boolean
}

/** A vector image has one file for every screen: the image CDN passes SVG through as it is. */
function isVector(url: string): boolean {
  return /\.svg$/i.test(url.split(/[?#]/)[0]!)
}

function isAbsolute(url: string): boolean {
  return URL.canParse(url)
}

/**
 * The `src` and `srcset` of an image field through the official helpers, on Prismic's image CDN
 * or the embedded content API's (the same imgix parameters): widths up to the view's own, never
 * an upscaled copy; embedded media as site-relative paths (`mediaUrl`).
 */
export function imageSources(field: FilledImageFieldImage): { src: string; srcSet?: string } {
  // The helpers need an absolute URL; content that is not one (malformed) is shown as written.
  if (!isAbsolute(field.url)) return { src: field.url }
  // The field's URL already carries Prismic's defaults (auto=compress,format), or leaves them
  // out on purpose (Prismic keeps an animated GIF as it is): the helpers keep its parameters.
  const src = mediaUrl(asImageSrc(field))
  if (isVector(field.url)) return { src }
  const own = field.dimensions.width
  const widths = [...SRCSET_WIDTHS.filter((w) => w < own), own]
  const { srcset } = asImageWidthSrcSet(field, { widths })
  return { src, srcSet: mediaSrcSet(srcset) }
}

/**
 * An image from the CMS as a plain, server-rendered `<img>` with its width and height (no layout
 * shift, no client JavaScript), a responsive `srcset` and `sizes`, and modern formats by
 * `auto=format`: the same code for Prismic's image CDN and the embedded content API's.
 */
export function ContentImage({ field, decorative, className, sizes, priority }: Props) {
  if (!isFilled.image(field)) return null
  const { src, srcSet } = imageSources(field)
  if (priority)
    preload(src, {
      as: 'image',
      fetchPriority: 'high',
      ...(srcSet ? { imageSrcSet: srcSet, imageSizes: sizes } : {}),
    })
  return (
    // eslint-disable-next-line @next/next/no-img-element -- next/image's optimizer would re-encode what the image CDN already sized, and costs client JS; this img is sized and lazy like next/image's.
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={decorative ? '' : (field.alt ?? '')}
      width={field.dimensions.width}
      height={field.dimensions.height}
      className={className}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : undefined}
    />
  )
}

/**
 * The scene wrapper's role: an image named by its description when there is one; without a
 * name it stays a plain container (an unnamed `role="img"` is an accessibility error).
 */
export function imageRole(label: string | null | undefined) {
  return label ? ({ role: 'img', 'aria-label': label } as const) : {}
}
