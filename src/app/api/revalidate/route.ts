import { revalidateTag } from 'next/cache'
import { getConfig } from '@/lib/config'
import { verifyWebhook, WebhookError } from '@/lib/content/webhook'
import { CONTENT_CACHE_TAG } from '@/prismicio'

/**
 * Prismic's publish webhook: once the body's `secret` matches `PRISMIC_WEBHOOK_SECRET`
 * (compared in constant time), every cached content fetch, and so every page built from one,
 * is purged; the next visit renders fresh content.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    await verifyWebhook(request, getConfig().webhookSecret)
  } catch (error) {
    if (error instanceof WebhookError)
      return Response.json({ error: error.message }, { status: error.status })
    throw error
  }
  revalidateTag(CONTENT_CACHE_TAG, { expire: 0 })
  return Response.json({ revalidated: true, now: Date.now() })
}

export const dynamic = 'force-dynamic'
