import type { MetadataRoute } from 'next'
import { SITEMAP_PAGE_SIZE, sitemapEntries, sitemapIds } from '@/lib/content/sitemap'

/**
 * One sitemap file per 1,000 URLs, at /sitemaps/sitemap/<n>.xml; /sitemap.xml indexes them. The
 * build prerenders the first; the others render on first request and are kept (`sitemapIds`).
 */
export async function generateSitemaps() {
  return sitemapIds()
}

export const dynamicParams = true

export default async function sitemap({
  id,
}: {
  id: Promise<string>
}): Promise<MetadataRoute.Sitemap> {
  const page = Number(await id)
  const entries = await sitemapEntries()
  return entries.slice(page * SITEMAP_PAGE_SIZE, (page + 1) * SITEMAP_PAGE_SIZE)
}
