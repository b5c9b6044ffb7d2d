import * as prismic from '@prismicio/client'
import type { Content } from '@prismicio/client'
import { getConfig } from '@/lib/config'
import {
  CONTENT_CACHE_TAG,
  EMBEDDED_BASE_PATH,
  cachedEmbeddedFetch,
  embeddedFetch,
} from '@/lib/content/embedded'
import { resilientFetch } from '@/lib/content/resilient-fetch'

export { CONTENT_CACHE_TAG }

/**
 * The route resolver: where each routable document type lives. The content API fills every
 * document's and link's `url` from it.
 */
export const routes: prismic.Route[] = [
  { type: 'page', uid: 'home', path: '/:lang' },
  { type: 'page', path: '/:lang/:uid' },
  { type: 'project', path: '/:lang/work/:uid' },
  { type: 'post', path: '/:lang/journal/:uid' },
  { type: 'work_index', path: '/:lang/work' },
  { type: 'journal_index', path: '/:lang/journal' },
]

/** The Content API endpoint in use: hosted Prismic, any compatible URL, or the embedded API. */
export function contentEndpoint(): string {
  const config = getConfig()
  if (config.content.mode === 'hosted') return hostedEndpoint(config.content.repository)
  return `${config.siteUrl}${EMBEDDED_BASE_PATH}/api/v2`
}

/** The document API of `PRISMIC_REPOSITORY`: a repository's name, or an endpoint as given. */
export function hostedEndpoint(repository: string): string {
  return prismic.isRepositoryEndpoint(repository)
    ? repository
    : prismic.getRepositoryEndpoint(repository)
}

/** The repository's name: Prismic's, or a stand-in for an endpoint that is not on prismic.io. */
export function repositoryName(endpoint: string): string {
  try {
    return prismic.getRepositoryName(endpoint)
  } catch {
    return 'facet-local'
  }
}

/**
 * The one configured Prismic client. In local mode it answers in-process from the embedded
 * content API; in hosted mode it reaches Prismic (or the URL in `PRISMIC_REPOSITORY`). Both
 * ways, a preview session (draft mode and Prismic's preview cookie) queries the previewed
 * release, every answer is cached under `CONTENT_CACHE_TAG`, and every call goes through
 * `resilientFetch`: a timeout, a capped retry, errors that name the request, and untrusted
 * links and embed HTML neutralised before any page sees them.
 */
export function createClient(
  config: prismic.ClientConfig = {},
): prismic.Client<Content.AllDocumentTypes> {
  const settings = getConfig()
  const endpoint = contentEndpoint()
  const client = prismic.createClient<Content.AllDocumentTypes>(repositoryName(endpoint), {
    documentAPIEndpoint: endpoint,
    routes,
    accessToken: settings.content.accessToken,
    ...(settings.content.mode === 'local'
      ? { fetch: resilientFetch(cachedEmbeddedFetch) }
      : {
          // Read at call time: Next patches the global fetch (its data cache reads `next.tags`).
          fetch: resilientFetch((input, init) => globalThis.fetch(perBuild(input), init)),
          fetchOptions: { cache: 'force-cache', next: { tags: [CONTENT_CACHE_TAG] } },
        }),
    ...config,
  })
  client.queryContentFromRef(previewRef)
  return client
}

/**
 * The client without Next's data cache, for code that runs outside a render (the proxy, which
 * has no cache to read from): every answer is fresh, through the same timeouts and retries.
 */
export function createUncachedClient(): prismic.Client<Content.AllDocumentTypes> {
  const local = getConfig().content.mode === 'local'
  return createClient({
    fetch: resilientFetch(local ? embeddedFetch : (input, init) => globalThis.fetch(input, init)),
    fetchOptions: { cache: 'no-store' },
  })
}

/**
 * The repository endpoint names the current master ref, and Next's data cache outlives a build
 * (`.next/cache`): cached as it is, a new build would keep asking for the old ref's content. So
 * its cache key carries the build's identity; every query names its ref and may be cached as
 * it is. Between builds, the webhook purges the tag.
 */
function perBuild(input: string): string {
  const url = new URL(input)
  if (!/\/api\/v2\/?$/.test(url.pathname)) return input
  url.searchParams.set('facet_build', process.env.FACET_BUILD_ID ?? 'dev')
  return url.toString()
}

/**
 * The preview ref of the current request, when a preview session is on: what @prismicio/next's
 * `enableAutoPreviews` reads. Restated here because importing anything from `@prismicio/next`'s
 * index into this module (which every page imports) put that package's client components, about
 * 30 KB gzipped, on every page.
 */
async function previewRef(): Promise<string | undefined> {
  const { cookies, draftMode } = await import('next/headers')
  try {
    if (!(await draftMode()).isEnabled) return undefined
  } catch {
    // Outside a request (build time): no preview.
    return undefined
  }
  return (await cookies()).get(prismic.cookie.preview)?.value
}
