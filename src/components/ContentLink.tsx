import type { ReactNode } from 'react'
import { asLinkAttrs, type LinkField, type PrismicDocument } from '@prismicio/client'

/**
 * A link from the CMS (a link field or a document), as a plain `<a>`: server-rendered, with no
 * client JavaScript (next/link's router would cost every page its bundle). External links that
 * open a new tab get `rel="noreferrer"` from `asLinkAttrs`. A link that goes nowhere (empty or
 * broken) renders its text alone.
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
  if (!attrs.href) return <span className={className}>{children}</span>
  return (
    <a
      href={attrs.href}
      target={attrs.target}
      rel={[attrs.rel, rel].filter(Boolean).join(' ') || undefined}
      className={className}
    >
      {children}
    </a>
  )
}
