import { cache } from 'react'
import type { PrismicDocument } from '@prismicio/client'
import { createClient } from '@/prismicio'
import { getLanguages } from './languages'
import { getSettings } from './queries'

/** One language's version of the current document (or that language's home). */
export type LanguageLink = {
  lang: string
  /** The language's name in itself, from its settings. */
  name: string
  url: string
  /** False when the document has no version in this language and the link goes home. */
  isAlternate: boolean
}

/** The URL of each version of a document, by language: the document's own and its alternates'. */
export const getAlternateUrls = cache(
  async (doc: PrismicDocument | undefined): Promise<Record<string, string>> => {
    if (!doc) return {}
    const client = createClient()
    const urls: Record<string, string> = {}
    if (doc.url) urls[doc.lang] = doc.url
    const alternates = await Promise.all(
      doc.alternate_languages.map((alt) =>
        client.getByID(alt.id, { lang: alt.lang }).catch(() => undefined),
      ),
    )
    for (const alt of alternates) if (alt?.url) urls[alt.lang] = alt.url
    return urls
  },
)

/**
 * The language switcher's links: each language goes to the same document in that language, or
 * to that language's home when the document has no version there.
 */
export async function getLanguageLinks(
  lang: string,
  doc: PrismicDocument | undefined,
): Promise<LanguageLink[]> {
  const [{ ids }, urls] = await Promise.all([getLanguages(), getAlternateUrls(doc)])
  return Promise.all(
    ids.map(async (id) => {
      const settings = await getSettings(id).catch(() => undefined)
      return {
        lang: id,
        name: settings?.data.language_name || id,
        url: urls[id] ?? `/${id}`,
        isAlternate: id === lang || id in urls,
      }
    }),
  )
}
