import type { NextRequest } from 'next/server'
import { exitPreview } from '@prismicio/next'
import { getConfig } from '@/lib/config'
import { crossSiteRefusal, isCrossSite, siteOrigins } from '@/lib/content/request-origin'
import { sameSitePath } from '@/lib/content/same-site'

/**
 * Ends a preview (Prismic's toolbar calls it). With `?redirect=/path` it then goes there, but
 * only to a path on this site. It changes state (the draft cookies), so requests from other
 * sites are refused (403).
 */
export async function GET(request: NextRequest): Promise<Response> {
  const { siteUrl } = getConfig()
  if (isCrossSite(request, siteUrl)) return crossSiteRefusal()
  const response = await exitPreview()
  const target = sameSitePath(
    request.nextUrl.searchParams.get('redirect'),
    siteOrigins(request, siteUrl),
  )
  if (!target) return response
  return new Response(null, {
    status: 307,
    headers: { Location: target, 'Cache-Control': 'no-store' },
  })
}

export const dynamic = 'force-dynamic'
