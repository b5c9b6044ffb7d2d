import type { SliceZone as SliceZoneField } from '@prismicio/client'
import { SliceZone } from '@prismicio/react'
import { components } from '@/slices'
import type { SliceContext } from '@/lib/content/slice-context'
import { normalizeSlices } from '@/lib/content/normalize'
import { sanitizeContent } from '@/lib/content/sanitize'

/**
 * The page's slices. An unknown slice renders nothing in production and a visible notice in
 * development, so an editor's new slice is never a blank mystery to the developer adding it.
 * Slices are untrusted (the slice simulator's come from its URL): hostile links and embed HTML
 * are neutralised and every field is coerced to its model's shape before any slice sees it. The
 * context carries the page's language, its title and the site's 3D look (`sliceContextFor`).
 */
export function Slices({ slices, context }: { slices: SliceZoneField; context: SliceContext }) {
  return (
    <SliceZone
      slices={normalizeSlices(sanitizeContent(slices)) as SliceZoneField}
      components={components}
      context={context}
      defaultComponent={
        process.env.NODE_ENV === 'development'
          ? ({ slice }) => (
              <section className="slice unknown-slice" role="note">
                Unknown slice <code>{slice.slice_type}</code>: add it under src/slices and run npm
                run generate.
              </section>
            )
          : () => null
      }
    />
  )
}
