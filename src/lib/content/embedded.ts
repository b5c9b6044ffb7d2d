import path from 'node:path'
import { createContentApi, type ContentApi } from '@services/content-api/app'
import { unstable_cache } from 'next/cache'
import { getConfig } from '@/lib/config'
import { SRCSET_WIDTHS } from '@/lib/content/srcset-widths'
import { warmState } from '@/lib/content/warm'

/** Where the site mounts the embedded content API. */
export const EMBEDDED_BASE_PATH = '/local/prismic'

/**
 * One API per process, on `globalThis`: Next.js bundles the proxy, the routes, the pages and the
 * instrumentation hook apart. A copy of the store in each would load the folder once per bundle
 * (seconds, and memory, at 10,000 documents), and the webhook's reload (a route handler) would
 * never reach the pages' copy.
 */
const KEY = Symbol.for('facet.embedded-content-api')

/** The embedded content API over `CONTENT_DIR` (default `content/`), created once per process. */
export function getEmbeddedContentApi(): ContentApi {
  const holder = globalThis as { [KEY]?: ContentApi }
  let api = holder[KEY]
  if (!api) {
    warmState().loads.content += 1
    const config = getConfig()
    if (config.content.mode !== 'local')
      throw new Error(
        'The embedded content API exists only in local mode (PRISMIC_REPOSITORY is set).',
      )
    api = createContentApi({
      contentDir: path.resolve(config.content.contentDir),
      modelsDir: process.cwd(),
      basePath: EMBEDDED_BASE_PATH,
      accessToken: config.content.accessToken,
      watch: process.env.NODE_ENV === 'development',
      priorityWidths: SRCSET_WIDTHS,
    })
    holder[KEY] = api
  }
  return api
}

/**
 * A `fetch` for the Prismic client that answers from the embedded content API in-process: no
 * port, no network, the same answers as over HTTP.
 */
export function embeddedFetch(input: string, init?: RequestInit): Promise<Response> {
  return getEmbeddedContentApi().fetch(
    new Request(input, { method: 'GET', headers: init?.headers, signal: init?.signal }),
  )
}

/** The cache tag on every content fetch; `/api/revalidate` purges it when content is published. */
export const CONTENT_CACHE_TAG = 'prismic'

type CachedAnswer = { status: number; headers: [string, string][]; body: string }

/**
 * Next caches `fetch` by tag only for its own `fetch`; the in-process one bypasses it. So the
 * embedded API's answers are kept in Next's data cache by `unstable_cache` (which works without
 * `cacheComponents`), tagged like hosted fetches, and purged by the same `revalidateTag`.
 */
const cachedAnswer = unstable_cache(
  async (url: string, headers: [string, string][]): Promise<CachedAnswer> => {
    const response = await embeddedFetch(url, { headers })
    // Failures are not kept: they go back to the client uncached, and the next call retries.
    if (response.status >= 500 || response.status === 429) throw new UncachedAnswer(response)
    return {
      status: response.status,
      headers: [...response.headers.entries()],
      body: await response.text(),
    }
  },
  ['facet-embedded-content-api'],
  { tags: [CONTENT_CACHE_TAG] },
)

class UncachedAnswer extends Error {
  constructor(readonly response: Response) {
    super(`The embedded content API answered ${response.status}`)
  }
}

/** `embeddedFetch` through Next's data cache, tagged `CONTENT_CACHE_TAG`. */
export async function cachedEmbeddedFetch(input: string, init?: RequestInit): Promise<Response> {
  // The repository answer carries the master ref, which changes with the content: it is always
  // asked fresh (in-process, it costs nothing). Queries name their ref (a hash of the content
  // it serves), so they cache safely, even across builds that share Next's data cache.
  const url = new URL(input)
  if (!url.pathname.includes('/documents/')) return embeddedFetch(input, init)
  // A preview token names a release whose drafts change under the same token: never cached.
  if (URL.canParse(url.searchParams.get('ref') ?? '')) return embeddedFetch(input, init)
  const headers = [...new Headers(init?.headers).entries()]
  let answer: CachedAnswer
  try {
    answer = await cachedAnswer(input, headers)
  } catch (error) {
    if (error instanceof UncachedAnswer) return error.response
    throw error
  }
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}
