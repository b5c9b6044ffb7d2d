import { sitemapCount } from '@/lib/content/sitemap'
import { absoluteUrl } from '@/lib/content/seo'

/** The sitemap index: one `<sitemap>` per file of 1,000 URLs. */
export async function GET(): Promise<Response> {
  const count = await sitemapCount()
  const items = Array.from(
    { length: count },
    (_, id) => `  <sitemap><loc>${absoluteUrl(`/sitemaps/sitemap/${id}.xml`)}</loc></sitemap>`,
  )
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } })
}
