import type { ReactNode } from 'react'
import { asLinkAttrs, type LinkField, type PrismicDocument } from '@prismicio/client'
import { mediaUrl } from '@/lib/content/media-url'
import { safeHref } from '@/lib/content/sanitize'

/**
 * A link from the CMS (a link field or a document), as a plain `<a>`: server-rendered, with no
 * client JavaScript (next/link's router would cost every page its bundle). External links that
 * open a new tab get `rel="noreferrer"` from `asLinkAttrs`. A link that goes nowhere (empty or
 * broken) renders its text alone, and so does one whose URL scheme is not http(s), mailto, tel
 * or relative (`javascript:`, `data:`, `vbscript:`…, however obfuscated): CMS content is
 * untrusted, and this check holds even for content that did not come through the client.
 */
export function ContentLink({
  field,
  document,
  className,
  rel,
  children,
}: {
  field?: LinkField | null
  document?: PrismicDocument
  className?: string
  rel?: string
  children: ReactNode
}) {
  const attrs = asLinkAttrs(document ?? field)
  // A link to media from the embedded content API stays on the origin the visitor is on.
  const href = safeHref(mediaUrl(attrs.href))
  if (!href) return <span className={className}>{children}</span>
  return (
    <a
      href={href}
      target={attrs.target}
      rel={[attrs.rel, rel].filter(Boolean).join(' ') || undefined}
      className={className}
    >
      {children}
    </a>
  )
}
