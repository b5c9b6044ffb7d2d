/**
 * The hosts Prismic serves a repository's uploaded files from, which `/3d-models` may fetch
 * models from (src/app/3d-models/route.ts), and how a model's Prismic URL becomes a URL of that
 * route. Plain data and functions: the route, `modelUrl()` and the tests read them.
 *
 * - `<repo>.cdn.prismic.io`: the repository's CDN, which serves its files under `/<repo>/…`
 *   (the host of the Content API endpoint, `getRepositoryEndpoint` in @prismicio/client).
 * - `images.prismic.io`: the image CDN (imgix), also in the site's CSP (src/lib/security-headers.ts).
 * - `prismic-io.s3.amazonaws.com`: where Link to Media fields of older repositories point.
 *
 * Any of them over https only, on the default port. `PRISMIC_ASSET_HOSTS` (src/lib/config.ts)
 * adds hosts, over http or https, each with the port it names: a standalone content API standing
 * in for Prismic's CDN in tests and development.
 */
export const PRISMIC_ASSET_HOSTS = [
  '*.cdn.prismic.io',
  'images.prismic.io',
  'prismic-io.s3.amazonaws.com',
] as const

/** The route on the site's origin that serves hosted models, optimized by `tier`. */
export const MODEL_ROUTE = '/3d-models'

function hostMatches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern
}

/**
 * Whether `url` is on a host `/3d-models` may fetch from: one of Prismic's over https, or one
 * of `extra` (host, or host:port; `*.domain` matches its subdomains) over http(s).
 */
export function isAssetUrl(url: URL, extra: readonly string[] = []): boolean {
  if (url.username || url.password) return false
  const hostname = url.hostname.toLowerCase()
  if (url.protocol === 'https:' && url.port === '')
    if (PRISMIC_ASSET_HOSTS.some((pattern) => hostMatches(pattern, hostname))) return true
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
  const host = url.host.toLowerCase()
  return extra.some((pattern) =>
    /:\d+$/.test(pattern) ? hostMatches(pattern, host) : hostMatches(pattern, hostname),
  )
}

/**
 * The site's URL of a model stored on Prismic: `/3d-models?src=<the asset URL>`, which takes
 * `tier` as the embedded media route does. Any other URL is returned as it is.
 */
export function hostedModelUrl(url: string, extra: readonly string[] = []): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (!isAssetUrl(parsed, extra)) return url
  return `${MODEL_ROUTE}?src=${encodeURIComponent(url)}`
}
