import type { ContentConfig } from '@/lib/config'

/**
 * Where Prismic serves a repository's uploaded files, which `/3d-models` may fetch models from
 * (src/app/3d-models/route.ts), and how a model's Prismic URL becomes a URL of that route. Plain
 * data and functions: the route, `modelUrl()` and the tests read them.
 *
 * Each host serves every repository's files, under `/<repo>/…`:
 * - `<repo>.cdn.prismic.io`: the repository's CDN (the host of its Content API endpoint,
 *   `getRepositoryEndpoint` in @prismicio/client);
 * - `images.prismic.io`: the image CDN (imgix), also in the site's CSP
 *   (src/lib/security-headers.ts);
 * - `prismic-io.s3.amazonaws.com`: where Link to Media fields of older repositories point.
 *
 * So the route fetches from them only the site's own repository's files (its first path segment),
 * over https, on the default port: never another Prismic customer's. `PRISMIC_ASSET_HOSTS`
 * (src/lib/config.ts) adds hosts, over http or https, each with the port it names: a standalone
 * content API standing in for Prismic's CDN in tests and development.
 */
export const PRISMIC_ASSET_HOSTS = [
  '<repo>.cdn.prismic.io',
  'images.prismic.io',
  'prismic-io.s3.amazonaws.com',
] as const

/** What `/3d-models` may fetch: the site's repository's files on Prismic's hosts, and `extra`. */
export type AssetScope = {
  /** The site's Prismic repository; without one (local content), no Prismic host is allowed. */
  repository?: string
  /** `PRISMIC_ASSET_HOSTS`: host, or host:port; `*.domain` matches its subdomains. */
  extra?: readonly string[]
}

/**
 * The Prismic repository the site reads, by name: `PRISMIC_REPOSITORY` is its name, or its
 * Content API URL on Prismic (`https://<repo>.cdn.prismic.io/api/v2`). Local content, or an
 * endpoint elsewhere (a stand-in), has none.
 */
export function repositoryOf(content: ContentConfig): string | undefined {
  // Not @prismicio/client's getRepositoryName: it names any host's first label, so a stand-in's
  // endpoint (http://127.0.0.1:…) would name a repository "127".
  if (content.mode !== 'hosted') return undefined
  if (!URL.canParse(content.repository)) return content.repository.toLowerCase()
  return /^([a-z0-9-]+)\.(?:cdn\.)?prismic\.io$/.exec(new URL(content.repository).hostname)?.[1]
}

/** The scope of the site's settings. */
export function assetScope(config: {
  content: ContentConfig
  prismicAssetHosts: readonly string[]
}): AssetScope {
  return { repository: repositoryOf(config.content), extra: config.prismicAssetHosts }
}

/** What `scope` allows, for a refusal's message. */
export function allowedAssets({ repository, extra = [] }: AssetScope): string {
  const prismic = repository
    ? PRISMIC_ASSET_HOSTS.map(
        (host) => `https://${host.replace('<repo>', repository)}/${repository}/…`,
      )
    : []
  const all = [...prismic, ...extra]
  return all.length ? all.join(', ') : 'nothing: no Prismic repository is set'
}

/** The route on the site's origin that serves hosted models, optimized by `tier`. */
export const MODEL_ROUTE = '/3d-models'

function hostMatches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern
}

/**
 * Whether `/3d-models` may fetch `url`: a file of the scope's repository on one of Prismic's
 * hosts, over https, or anything on one of its `extra` hosts, over http(s).
 */
export function isAssetUrl(url: URL, { repository, extra = [] }: AssetScope = {}): boolean {
  if (url.username || url.password) return false
  const hostname = url.hostname.toLowerCase()
  if (repository && url.protocol === 'https:' && url.port === '') {
    const hosts = PRISMIC_ASSET_HOSTS.map((host) => host.replace('<repo>', repository))
    // The URL parser has already resolved any `..`, so the first segment is the repository's.
    if (hosts.includes(hostname) && url.pathname.split('/')[1] === repository) return true
  }
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
export function hostedModelUrl(url: string, scope: AssetScope = {}): string {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (!isAssetUrl(parsed, scope)) return url
  return `${MODEL_ROUTE}?src=${encodeURIComponent(url)}`
}
