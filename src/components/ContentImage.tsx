import { preload } from 'react-dom'
import { asImageSrc, asImageWidthSrcSet, isFilled, type ImageField } from '@prismicio/client'

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

/** Prismic's image CDN (imgix) resizes on request; other hosts serve files as they are. */
function isImgix(url: string): boolean {
  try {
    const host = new URL(url).hostname
    return host.endsWith('.prismic.io') || host.endsWith('.imgix.net')
  } catch {
    return false
  }
}

/**
 * An image from the CMS as a plain, server-rendered `<img>` with its width and height (no layout
 * shift, no client JavaScript). On Prismic, imgix gives it a responsive `srcset` and modern
 * formats. Files from the embedded content API (already sized and compressed in
 * `content/media`) are served as they are: Next's optimizer would need `sharp`, which is not
 * installed, and refuses loopback hosts.
 */
export function ContentImage({ field, decorative, className, sizes, priority }: Props) {
  if (!isFilled.image(field)) return null
  const imgix = isImgix(field.url)
  const src = imgix ? asImageSrc(field, { auto: ['format', 'compress'] })! : field.url
  const srcSet = imgix
    ? asImageWidthSrcSet(field, { auto: ['format', 'compress'] })?.srcset
    : undefined
  if (priority)
    preload(src, {
      as: 'image',
      fetchPriority: 'high',
      ...(srcSet ? { imageSrcSet: srcSet, imageSizes: sizes } : {}),
    })
  return (
    // eslint-disable-next-line @next/next/no-img-element -- next/image needs sharp or a loader for these files, and costs client JS; this img is sized and lazy like next/image's.
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
