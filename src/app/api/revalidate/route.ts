import { revalidateTag } from 'next/cache'
import { getConfig } from '@/lib/config'
import { getEmbeddedContentApi } from '@/lib/content/embedded'
import { startModelWarming } from '@/lib/content/model-warm'
import { crossSiteRefusal, isCrossSite } from '@/lib/content/request-origin'
import { verifyWebhook, WebhookError } from '@/lib/content/webhook'
import { CONTENT_CACHE_TAG } from '@/prismicio'

/**
 * Prismic's publish webhook: once the body's `secret` matches `PRISMIC_WEBHOOK_SECRET`
 * (compared in constant time), every cached content fetch, and so every page built from one,
 * is purged; the next visit renders fresh content. In local mode the embedded content API reads
 * its folder again first. On a 200, the serving layer purges the CDN too (server/cdn.mjs). A
 * request a browser sends from another site (its `Origin` or `Sec-Fetch-Site` says so) is
 * refused (403) before the body is read. After a 200, the variants of the published models are
 * made in the background (src/lib/content/model-warm.ts).
 */
export async function POST(request: Request): Promise<Response> {
  const config = getConfig()
  if (isCrossSite(request, config.siteUrl)) return crossSiteRefusal()
  try {
    await verifyWebhook(request, config.webhookSecret)
  } catch (error) {
    if (error instanceof WebhookError)
      return Response.json({ error: error.message }, { status: error.status })
    throw error
  }
  // In local mode, the publish is the content folder as it is now: read it again first.
  if (config.content.mode === 'local') getEmbeddedContentApi().reload()
  revalidateTag(CONTENT_CACHE_TAG, { expire: 0 })
  // The published models' variants, made in the background: the answer never waits for them.
  startModelWarming()
  return Response.json({ revalidated: true, now: Date.now() })
}

export const dynamic = 'force-dynamic'
