import type { ContentStore, PrismicApiDocument } from './store'

/**
 * Prismic's route resolver (`routes` parameter): fills each document's and link's `url` from
 * path patterns such as `/:lang/:uid`. `:lang?` is left out for the master language.
 */

export type Route = {
  type: string
  path: string
  uid?: string
  lang?: string
  resolvers?: Record<string, string>
}

/** Reads the `routes` query parameter (JSON); throws with a readable message when malformed. */
export function parseRoutes(value: string | null): Route[] {
  if (!value) return []
  const parsed: unknown = JSON.parse(value)
  const list = Array.isArray(parsed) ? parsed : [parsed]
  return list.map((route, i) => {
    if (
      !route ||
      typeof route !== 'object' ||
      typeof route.type !== 'string' ||
      typeof route.path !== 'string'
    ) {
      throw new Error(`route ${i} needs a "type" and a "path"`)
    }
    return route as Route
  })
}

/** The URL of a document by the first route that fits it, or null when none does. */
export function resolveRoute(
  routes: Route[],
  doc: Pick<PrismicApiDocument, 'type' | 'uid' | 'lang'> & { data?: PrismicApiDocument['data'] },
  store: Pick<ContentStore, 'masterLang'> & Partial<Pick<ContentStore, 'byId'>>,
): string | null {
  const candidates = routes.filter(
    (r) =>
      r.type === doc.type &&
      (r.uid === undefined || r.uid === doc.uid) &&
      (r.lang === undefined || r.lang === doc.lang),
  )
  // Routes that name a uid or a language are more specific than those that do not.
  candidates.sort(
    (a, b) =>
      Number(b.uid !== undefined) +
      Number(b.lang !== undefined) -
      (Number(a.uid !== undefined) + Number(a.lang !== undefined)),
  )
  for (const route of candidates) {
    let ok = true
    const url = route.path.replace(
      /:([A-Za-z_][\w.]*)(\?)?/g,
      (_, name: string, optional?: string) => {
        let value: string | null = null
        if (name === 'lang') value = optional && doc.lang === store.masterLang ? '' : doc.lang
        else if (name === 'uid') value = doc.uid
        else if (route.resolvers?.[name]) value = resolveUid(route.resolvers[name]!, doc, store)
        if (value === null || (value === '' && !optional)) {
          if (!optional) ok = false
          return ''
        }
        return value
      },
    )
    if (ok) return url.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1') || '/'
  }
  return null
}

/**
 * A route resolver (`resolvers: { category: "category" }` or `"category.parent"`): follows
 * content relationship fields from the document and gives the last one's uid, or null.
 */
function resolveUid(
  chain: string,
  doc: { data?: PrismicApiDocument['data'] },
  store: Partial<Pick<ContentStore, 'byId'>>,
): string | null {
  let data = doc.data
  let uid: string | null = null
  for (const field of chain.split('.')) {
    const link = data?.[field]
    if (!link || typeof link !== 'object' || Array.isArray(link) || typeof link.id !== 'string')
      return null
    const target = store.byId?.get(link.id)
    if (!target) return null
    uid = target.doc.uid
    data = target.doc.data
  }
  return uid
}
