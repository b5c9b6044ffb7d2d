import { getConfig } from '@/lib/config'
import { assetScope, hostedModelUrl } from '@/lib/content/asset-hosts'
import { EMBEDDED_BASE_PATH } from '@/lib/content/embedded'

/**
 * The URL of a media file as the site's HTML should carry it. The embedded content API names its
 * media absolutely, from `SITE_URL` (the Prismic client needs absolute URLs, and so do Open
 * Graph and structured data); in a page, that would send a visitor who opened the site at
 * another host name (127.0.0.1, a LAN address, a proxy) to another origin for every image and
 * model. So embedded media become site-relative paths here; hosted Prismic URLs (and anything
 * else) are returned unchanged.
 */
export function mediaUrl(url: string): string
export function mediaUrl(url: string | null | undefined): string | null
export function mediaUrl(url: string | null | undefined): string | null {
  if (!url) return null
  const config = getConfig()
  return config.content.mode === 'local' ? sitePath(url, config.siteUrl) : url
}

/**
 * The URL of a 3D model as the site's HTML should carry it: always one of the site's own origin,
 * so that the renderer may ask it for a variant (`?tier=low|high`, docs/3d-models.md). Embedded
 * media become site-relative paths, as `mediaUrl` makes them; a model on Prismic's asset CDN
 * becomes `/3d-models?src=…`, the site's route that fetches, optimizes and caches it.
 */
export function modelMediaUrl(url: string | null | undefined): string | null {
  if (!url) return null
  const config = getConfig()
  return config.content.mode === 'local'
    ? sitePath(url, config.siteUrl)
    : hostedModelUrl(url, assetScope(config))
}

/** `url` as a path when it names the embedded API's media on `siteUrl`, else `url` itself. */
export function sitePath(url: string, siteUrl: string): string {
  if (!URL.canParse(url) || !URL.canParse(siteUrl)) return url
  const parsed = new URL(url)
  if (parsed.origin !== new URL(siteUrl).origin) return url
  if (!parsed.pathname.startsWith(`${EMBEDDED_BASE_PATH}/media/`)) return url
  return `${parsed.pathname}${parsed.search}`
}

/** A `srcset` with each candidate's URL passed through `mediaUrl`. */
export function mediaSrcSet(srcset: string): string {
  // imgix-url-builder writes commas in query values as %2C, so ", " only separates candidates.
  return srcset
    .split(', ')
    .map((candidate) => {
      const [url, descriptor] = candidate.split(' ')
      return `${mediaUrl(url!)} ${descriptor}`
    })
    .join(', ')
}
