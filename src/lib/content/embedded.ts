import path from 'node:path'
import { createContentApi, type ContentApi } from '@services/content-api/app'
import { getConfig } from '@/lib/config'

/** Where the site mounts the embedded content API. */
export const EMBEDDED_BASE_PATH = '/local/prismic'

let api: ContentApi | undefined

/** The embedded content API over `CONTENT_DIR` (default `content/`), created once per process. */
export function getEmbeddedContentApi(): ContentApi {
  if (!api) {
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
    })
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
