import { getModelProxy } from '@/lib/content/model-proxy'

/**
 * Models of the site's Prismic repository, from the site's own origin:
 * `/3d-models?src=<asset URL>`, with `tier=low|high` for an optimized GLB (docs/3d-models.md).
 * `modelUrl()` (src/three/fields.ts) writes these URLs in hosted mode. In local mode the embedded
 * media route does the same, and this route serves only the hosts `PRISMIC_ASSET_HOSTS` adds (no
 * repository is set).
 */
export async function GET(request: Request): Promise<Response> {
  return getModelProxy().handle(request)
}

export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'
