import type { Content } from '@prismicio/client'
import { Slices } from './Slices'
import { sliceContextFor } from '@/lib/content/queries'

/**
 * A `page` document: its slices, with the title as the h1. A first slice that is a hero shows
 * the title itself; otherwise the page does.
 */
export async function PageView({ page }: { page: Content.PageDocument }) {
  const heroFirst = page.data.slices[0]?.slice_type === 'hero'
  return (
    <main id="main" tabIndex={-1}>
      {!heroFirst && (
        <header className="page-header">
          <h1>{page.data.title}</h1>
        </header>
      )}
      <Slices
        slices={page.data.slices}
        context={await sliceContextFor(page.lang, page.data.title)}
      />
    </main>
  )
}
