import type { ComponentProps } from 'react'
import Image from 'next/image'
import { isFilled, type ImageField } from '@prismicio/client'
import { PrismicNextImage } from '@prismicio/next'

type Props = Omit<
  ComponentProps<typeof PrismicNextImage>,
  'field' | 'alt' | 'fallbackAlt' | 'loader' | 'imgixParams'
> & {
  field: ImageField | null | undefined
  /** Set for decorative images only: the CMS alt text is used otherwise. */
  decorative?: boolean
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
 * An image from the CMS, sized from its dimensions. On Prismic it gets imgix's responsive
 * `srcset` through `PrismicNextImage`. Files from the embedded content API (already sized and
 * compressed in `content/media`) are served as they are: Next's optimizer would need `sharp`,
 * which is not installed, and refuses loopback hosts.
 */
export function ContentImage({ field, decorative, ...props }: Props) {
  if (!isFilled.image(field)) return null
  if (isImgix(field.url))
    return (
      <PrismicNextImage field={field} {...(decorative ? { alt: '' as const } : {})} {...props} />
    )
  const { width, height, ...rest } = props
  return (
    <Image
      src={field.url}
      alt={decorative ? '' : (field.alt ?? '')}
      width={Number(width) || field.dimensions.width}
      height={Number(height) || field.dimensions.height}
      unoptimized
      {...rest}
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
