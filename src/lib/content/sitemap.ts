import { PHASE_PRODUCTION_BUILD } from 'next/constants'
import { countRoutable, getAllRoutable } from './queries'
import { absoluteUrl } from './seo'

/** URLs per sitemap file; the protocol allows 50,000, and smaller files are kinder to crawlers. */
export const SITEMAP_PAGE_SIZE = 1000

/** One sitemap entry per routable document, with its alternates, in a stable order. */
export async function sitemapEntries() {
  const docs = await getAllRoutable()
  const urlById = new Map(docs.map((doc) => [doc.id, doc.url]))
  return docs
    .filter((doc) => doc.url)
    .sort((a, b) => a.url!.localeCompare(b.url!))
    .map((doc) => ({
      url: absoluteUrl(doc.url!),
      lastModified: new Date(doc.last_publication_date),
      alternates: {
        languages: Object.fromEntries(
          [doc, ...doc.alternate_languages].flatMap((alt) => {
            const url = urlById.get(alt.id)
            return url ? [[alt.lang, absoluteUrl(url)]] : []
          }),
        ),
      },
    }))
}

/** How many sitemap files the site needs (at least one): one query, whatever the size. */
export async function sitemapCount(): Promise<number> {
  return Math.max(1, Math.ceil((await countRoutable()) / SITEMAP_PAGE_SIZE))
}

/**
 * The sitemap files the build prerenders: the first only. The others render on their first
 * request and are kept like it (the route is static), so the build does not grow with the
 * repository. Next.js takes the build's list and the list a request checks its id against from
 * the same `generateSitemaps`, hence the phase.
 */
export async function sitemapIds(): Promise<{ id: number }[]> {
  const count = process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD ? 1 : await sitemapCount()
  return Array.from({ length: count }, (_, id) => ({ id }))
}
