import type { MetadataRoute } from 'next'
import { SITEMAP_PAGE_SIZE, sitemapCount, sitemapEntries } from '@/lib/content/sitemap'

/** One sitemap file per 1,000 URLs, at /sitemaps/sitemap/<n>.xml; /sitemap.xml indexes them. */
export async function generateSitemaps() {
  const count = await sitemapCount()
  return Array.from({ length: count }, (_, id) => ({ id }))
}

export default async function sitemap({
  id,
}: {
  id: Promise<string>
}): Promise<MetadataRoute.Sitemap> {
  const page = Number(await id)
  const entries = await sitemapEntries()
  return entries.slice(page * SITEMAP_PAGE_SIZE, (page + 1) * SITEMAP_PAGE_SIZE)
}
