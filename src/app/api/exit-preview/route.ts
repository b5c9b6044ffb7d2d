import type { NextRequest } from 'next/server'
import { exitPreview } from '@prismicio/next'
import { getConfig } from '@/lib/config'
import { sameSitePath } from '@/lib/content/same-site'

/**
 * Ends a preview (Prismic's toolbar calls it). With `?redirect=/path` it then goes there, but
 * only to a path on this site.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const response = await exitPreview()
  const target = sameSitePath(request.nextUrl.searchParams.get('redirect'), getConfig().siteUrl)
  if (!target) return response
  return new Response(null, {
    status: 307,
    headers: { Location: target, 'Cache-Control': 'no-store' },
  })
}

export const dynamic = 'force-dynamic'
