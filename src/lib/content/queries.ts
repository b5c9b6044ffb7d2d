import { cache } from 'react'
import * as prismic from '@prismicio/client'
import type { Content } from '@prismicio/client'
import { createClient } from '@/prismicio'
import { getEvery } from './get-every'
import type { SliceContext } from './slice-context'
import { siteLookOf } from '@/three/fields'

/**
 * The site's content queries, in one place. Each is memoised for the render (`cache`) and its
 * fetches are cached under the content tag by the client (see `src/prismicio.ts`).
 */

/** Projects per page of the work index. */
export const PROJECTS_PER_PAGE = 4
/** Posts per page of the journal index. */
export const POSTS_PER_PAGE = 6

/**
 * The settings of a language; every piece of interface text comes from here. A repository
 * without them still renders, with empty labels.
 */
export const getSettings = cache((lang: string): Promise<Content.SettingsDocument> =>
  createClient()
    .getSingle('settings', { lang })
    .catch((error: unknown) => {
      notFoundAsUndefined(error)
      return emptySingle('settings', lang, {
        footer_text: [],
        social_links: [],
        not_found_text: [],
        error_text: [],
      } as Partial<Content.SettingsDocumentData>)
    }),
)

/**
 * What a page hands its slices (`<Slices context>`): its language, its title, and the site's 3D
 * look from the settings of that language, which a model slice's own fields override.
 */
export async function sliceContextFor(lang: string, title?: string | null): Promise<SliceContext> {
  return { lang, title, look: siteLookOf(await getSettings(lang)) }
}

/** The main menu of a language (empty when the repository has none). */
export const getNavigation = cache((lang: string): Promise<Content.NavigationDocument> =>
  createClient()
    .getSingle('navigation', { lang })
    .catch((error: unknown) => {
      notFoundAsUndefined(error)
      return emptySingle('navigation', lang, { links: [] })
    }),
)

/**
 * A stand-in for a missing single document. The cast is the point: its fields are absent, which
 * every reader treats as empty (the API sends null for empty fields, so readers already must).
 */
function emptySingle<T extends Content.SettingsDocument | Content.NavigationDocument>(
  type: T['type'],
  lang: string,
  data: Partial<T['data']>,
): T {
  return {
    id: `missing-${type}-${lang}`,
    uid: null,
    url: null,
    type,
    href: '',
    tags: [],
    first_publication_date: '',
    last_publication_date: '',
    slugs: [],
    linked_documents: [],
    lang,
    alternate_languages: [],
    data,
  } as unknown as T
}

/** A page by uid, or undefined. */
export const getPage = cache((lang: string, uid: string) =>
  createClient().getByUID('page', uid, { lang }).catch(notFoundAsUndefined),
)

/** A project by uid, or undefined. */
export const getProject = cache((lang: string, uid: string) =>
  createClient().getByUID('project', uid, { lang }).catch(notFoundAsUndefined),
)

/** A post by uid, or undefined. */
export const getPost = cache((lang: string, uid: string) =>
  createClient().getByUID('post', uid, { lang }).catch(notFoundAsUndefined),
)

/** The work index's texts. */
export const getWorkIndex = cache((lang: string) =>
  createClient().getSingle('work_index', { lang }).catch(notFoundAsUndefined),
)

/** The journal index's texts. */
export const getJournalIndex = cache((lang: string) =>
  createClient().getSingle('journal_index', { lang }).catch(notFoundAsUndefined),
)

/** One page of projects, newest first, optionally with a tag. */
export const getProjects = cache(
  (lang: string, page = 1, tag?: string, pageSize = PROJECTS_PER_PAGE) =>
    createClient().getByType('project', {
      lang,
      page,
      pageSize,
      filters: tag ? [prismic.filter.at('document.tags', [tag])] : [],
      orderings: [
        { field: 'my.project.date', direction: 'desc' },
        { field: 'document.first_publication_date', direction: 'desc' },
      ],
    }),
)

/** Every tag used by the projects of a language, sorted. */
export const getProjectTags = cache(async (lang: string) => {
  // Tags are metadata: the fields stay behind (`fetch` names one), however many projects there are.
  const projects = await getEvery(createClient(), {
    filters: [prismic.filter.at('document.type', 'project')],
    lang,
    fetch: ['project.title'],
  })
  return [...new Set(projects.flatMap((p) => p.tags))].sort((a, b) => a.localeCompare(b, lang))
})

/** One page of posts, newest first, optionally matching a full-text query. */
export const getPosts = cache((lang: string, page = 1, query?: string, pageSize = POSTS_PER_PAGE) =>
  createClient().getByType('post', {
    lang,
    page,
    pageSize,
    filters: query ? [prismic.filter.fulltext('document', query)] : [],
    orderings: [
      { field: 'my.post.date', direction: 'desc' },
      { field: 'document.first_publication_date', direction: 'desc' },
    ],
  }),
)

/** Projects by id, in the order given (the project grid's "selected" variation). */
export const getProjectsByIds = cache(async (lang: string, ids: string[]) => {
  if (ids.length === 0) return []
  const found = await createClient().getByIDs<Content.ProjectDocument>(ids, { lang })
  const byId = new Map(found.results.map((p) => [p.id, p]))
  return ids.flatMap((id) => byId.get(id) ?? [])
})

/** The routable types, as the route resolver knows them (src/prismicio.ts). */
const ROUTABLE_TYPES = ['page', 'work_index', 'journal_index', 'project', 'post'] as const

/**
 * Every routable document of every language, for the sitemap: the documents' metadata (url,
 * dates, alternates) without their fields (`fetch` names one field of each type), so that a
 * repository of 50,000 documents costs megabytes here, not gigabytes.
 */
export const getAllRoutable = cache(async () => {
  const client = createClient()
  const fetch = ROUTABLE_TYPES.map((type) => `${type}.title`)
  const lists = await Promise.all(
    ROUTABLE_TYPES.map((type) =>
      getEvery(client, { filters: [prismic.filter.at('document.type', type)], lang: '*', fetch }),
    ),
  )
  return lists.flat()
})

/** How many routable documents the repository holds, in every language (one small query). */
export const countRoutable = cache(async () => {
  const answer = await createClient().get({
    filters: [prismic.filter.any('document.type', [...ROUTABLE_TYPES])],
    lang: '*',
    pageSize: 1,
  })
  return answer.total_results_size
})

/**
 * Newest documents of each repeatable type and language that the build prerenders. Every other
 * document renders on its first visit and is then kept like a prerendered page (and shared
 * through Redis between nodes), so the build's time and size stop growing with the repository.
 */
export const PRERENDERED_NEWEST = 12

/** How the newest documents of a type come first. */
const NEWEST_FIRST: Record<'page' | 'project' | 'post', prismic.Ordering[]> = {
  page: [{ field: 'document.first_publication_date', direction: 'desc' }],
  project: [
    { field: 'my.project.date', direction: 'desc' },
    { field: 'document.first_publication_date', direction: 'desc' },
  ],
  post: [
    { field: 'my.post.date', direction: 'desc' },
    { field: 'document.first_publication_date', direction: 'desc' },
  ],
}

/**
 * The uids of `type` in `lang` that the build prerenders: whatever the navigation links to, and
 * the `PRERENDERED_NEWEST` newest. A bounded set whatever the repository's size.
 */
export async function prerenderedUids(
  type: 'page' | 'project' | 'post',
  lang: string,
): Promise<string[]> {
  const [navigation, newest] = await Promise.all([
    getNavigation(lang),
    createClient().getByType(type, {
      lang,
      pageSize: PRERENDERED_NEWEST,
      orderings: NEWEST_FIRST[type],
      fetch: [`${type}.title`],
    }),
  ])
  const uids = new Set<string>()
  for (const item of navigation.data.links ?? []) {
    const link = item.link as { link_type?: string; type?: string; uid?: string; lang?: string }
    if (link?.link_type === 'Document' && link.type === type && link.uid && link.lang === lang)
      uids.add(link.uid)
  }
  for (const doc of newest.results) if (doc.uid) uids.add(doc.uid)
  return [...uids]
}

function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof prismic.NotFoundError) return undefined
  throw error
}
