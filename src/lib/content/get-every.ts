import type * as prismic from '@prismicio/client'
import { getConfig } from '@/lib/config'

/** The API's largest page. */
const PAGE_SIZE = 100

type Query = NonNullable<Parameters<prismic.Client['get']>[0]>

/**
 * Every document a query matches, over all its pages. `dangerouslyGetAll` waits 500 ms between
 * pages, politeness towards Prismic's servers that the client applies whatever the repository:
 * 100 pages, 10,000 documents, took 50 s that way. The embedded content API answers in-process
 * (there is no one to be polite to), so in local mode the pages after the first are asked for
 * all at once. Against Prismic the client's own pacing stays.
 */
export async function getEvery<T extends prismic.PrismicDocument>(
  client: prismic.Client,
  query: Query,
): Promise<T[]> {
  if (getConfig().content.mode !== 'local')
    return (await client.dangerouslyGetAll(query)) as unknown as T[]
  const first = await client.get({ ...query, pageSize: PAGE_SIZE, page: 1 })
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, first.total_pages - 1) }, (_, i) =>
      client.get({ ...query, pageSize: PAGE_SIZE, page: i + 2 }),
    ),
  )
  return [first, ...rest].flatMap((answer) => answer.results) as unknown as T[]
}
