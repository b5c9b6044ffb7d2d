import type { SliceZone as SliceZoneField } from '@prismicio/client'
import { SliceZone } from '@prismicio/react'
import { components } from '@/slices'
import type { SliceContext } from '@/lib/content/slice-context'

/**
 * The page's slices. An unknown slice renders nothing in production and a visible notice in
 * development, so an editor's new slice is never a blank mystery to the developer adding it.
 */
export function Slices({ slices, context }: { slices: SliceZoneField; context: SliceContext }) {
  return (
    <SliceZone
      slices={slices}
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
