import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * Reads the sample content straight from `content/`, so the end-to-end tests assert what the
 * files say rather than literals copied into the tests.
 */

const DOCUMENTS = path.join(process.cwd(), 'content', 'documents')

export type ContentFile = {
  type: string
  key: string
  lang: string
  uid?: string
  tags: string[]
  data: Record<string, unknown> & {
    title?: string
    meta_title?: string
    meta_description?: string
    slices?: { slice_type: string; variation: string; primary: Record<string, unknown> }[]
  }
}

/** Every document file in `content/documents`. */
export function allDocuments(): ContentFile[] {
  const out: ContentFile[] = []
  for (const type of readdirSync(DOCUMENTS))
    for (const key of readdirSync(path.join(DOCUMENTS, type)))
      for (const file of readdirSync(path.join(DOCUMENTS, type, key))) {
        const raw = JSON.parse(readFileSync(path.join(DOCUMENTS, type, key, file), 'utf8'))
        out.push({ type, key, lang: file.replace(/\.json$/, ''), tags: [], ...raw })
      }
  return out
}

/** One document file. */
export function documentFile(type: string, key: string, lang: string): ContentFile {
  const file = path.join(DOCUMENTS, type, key, `${lang}.json`)
  if (!existsSync(file)) throw new Error(`No content file ${file}`)
  return { type, key, lang, tags: [], ...JSON.parse(readFileSync(file, 'utf8')) }
}

/** One document file of a release (`content/releases/<release>/documents/…`). */
export function releaseDocumentFile(
  release: string,
  type: string,
  key: string,
  lang: string,
): ContentFile {
  const file = path.join(process.cwd(), 'content', 'releases', release, 'documents', type, key)
  return { type, key, lang, tags: [], ...JSON.parse(readFileSync(`${file}/${lang}.json`, 'utf8')) }
}

/** The site's languages, from `content/repository.json`. */
export function languages(): string[] {
  const repo = JSON.parse(
    readFileSync(path.join(process.cwd(), 'content', 'repository.json'), 'utf8'),
  )
  return repo.languages.map((l: { id: string }) => l.id)
}

/** Where a document lives on the site: the routes of `src/prismicio.ts`, restated. */
export function urlOf(doc: Pick<ContentFile, 'type' | 'uid' | 'lang'>): string | undefined {
  switch (doc.type) {
    case 'page':
      return doc.uid === 'home' ? `/${doc.lang}` : `/${doc.lang}/${doc.uid}`
    case 'project':
      return `/${doc.lang}/work/${doc.uid}`
    case 'post':
      return `/${doc.lang}/journal/${doc.uid}`
    case 'work_index':
      return `/${doc.lang}/work`
    case 'journal_index':
      return `/${doc.lang}/journal`
    default:
      return undefined
  }
}

/** Every routable document, with its URL. */
export function routes(): (ContentFile & { url: string })[] {
  return allDocuments().flatMap((doc) => {
    const url = urlOf(doc)
    return url ? [{ ...doc, url }] : []
  })
}

/** The plain text of a rich text field. */
export function richText(field: unknown): string {
  return Array.isArray(field)
    ? field.map((block: { text?: string }) => block.text ?? '').join('\n')
    : ''
}

/** The date field of a document, for ordering. */
export function dateOf(doc: ContentFile): string {
  return String(doc.data.date ?? '')
}

/** The showcase viewer's hotspots as committed: its list's heading, each label and its detail. */
export function showcaseHotspots(lang = 'en-us'): { heading: string; items: [string, string][] } {
  const viewer = documentFile('page', 'showcase', lang).data.slices!.find(
    (slice) => slice.slice_type === 'model_viewer',
  )!.primary
  const hotspots = viewer.hotspots as { label: string; detail: unknown }[]
  return {
    heading: viewer.hotspots_heading as string,
    items: hotspots.map((hotspot) => [hotspot.label, richText(hotspot.detail)]),
  }
}
