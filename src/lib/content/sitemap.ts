import { getAllRoutable } from './queries'
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

/** How many sitemap files the site needs (at least one). */
export async function sitemapCount(): Promise<number> {
  return Math.max(1, Math.ceil((await sitemapEntries()).length / SITEMAP_PAGE_SIZE))
}
