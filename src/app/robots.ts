import type { MetadataRoute } from 'next'
import { absoluteUrl } from '@/lib/content/seo'

/** Everything is crawlable but the APIs, the embedded services and the slice simulator. */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: ['/api/', '/local/', '/slice-simulator'] }],
    sitemap: absoluteUrl('/sitemap.xml'),
  }
}
