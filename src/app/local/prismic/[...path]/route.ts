import { getConfig } from '@/lib/config'
import { getEmbeddedContentApi } from '@/lib/content/embedded'

/** The embedded content API, mounted at /local/prismic (local mode only). */
export async function GET(request: Request): Promise<Response> {
  if (getConfig().content.mode !== 'local') return new Response(null, { status: 404 })
  return getEmbeddedContentApi().fetch(request)
}

export const dynamic = 'force-dynamic'
