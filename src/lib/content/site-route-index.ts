import { getEvery } from '@/lib/content/get-every'
import { createRouteIndex, loadRouteIndex } from '@/lib/content/route-index'
import { warmState } from '@/lib/content/warm'
import { createUncachedClient, routes } from '@/prismicio'

type SiteRouteIndex = ReturnType<typeof createRouteIndex>

/** One index per process, whichever bundle asks first (see warm.ts on why `globalThis`). */
const KEY = Symbol.for('facet.route-index')

/**
 * The route index of the site's proxy (src/proxy.ts) over the repository it reads: loaded by the
 * warm-up before the node reports ready, then kept fresh by the master ref.
 */
export function siteRouteIndex(): SiteRouteIndex {
  const holder = globalThis as { [KEY]?: SiteRouteIndex }
  holder[KEY] ??= createRouteIndex({
    masterRef: async () => (await createUncachedClient().getMasterRef()).ref,
    load: () => {
      warmState().loads.routeIndex += 1
      const client = createUncachedClient()
      return loadRouteIndex(
        client,
        routes.map((route) => route.type),
        (query) => getEvery(client, query),
      )
    },
  })
  return holder[KEY]
}
