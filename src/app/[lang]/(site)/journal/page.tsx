import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { PrismicRichText } from '@prismicio/react'
import { Pagination } from '@/components/Pagination'
import { PostCard } from '@/components/PostCard'
import { Slices } from '@/components/Slices'
import { getJournalIndex, getPosts, getSettings, sliceContextFor } from '@/lib/content/queries'
import { documentMetadata } from '@/lib/content/seo'
import { fillTemplate } from '@/lib/content/text'

type Props = {
  params: Promise<{ lang: string }>
  searchParams: Promise<{ q?: string | string[]; page?: string | string[] }>
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function pageNumber(value: string | undefined): number {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 ? page : 1
}

function journalHref(lang: string, q: string | undefined, page: number): string {
  const query = new URLSearchParams()
  if (q) query.set('q', q)
  if (page > 1) query.set('page', String(page))
  const search = query.toString()
  return `/${lang}/journal${search ? `?${search}` : ''}`
}

/** The journal index: posts newest first, paged, with full-text search through `?q=`. */
export default async function JournalIndex({ params, searchParams }: Props) {
  const { lang } = await params
  const search = await searchParams
  const q = one(search.q)?.trim().slice(0, 200) || undefined
  const page = pageNumber(one(search.page))
  const [index, settings] = await Promise.all([getJournalIndex(lang), getSettings(lang)])
  if (!index) notFound()
  const posts = await getPosts(lang, page, q)
  if (page > 1 && page > posts.total_pages) notFound()
  return (
    <main id="main" tabIndex={-1}>
      <header className="page-header">
        <h1>{index.data.title}</h1>
        <div className="lead">
          <PrismicRichText field={index.data.intro} />
        </div>
      </header>
      <div className="search">
        <form action={`/${lang}/journal`} method="get" role="search">
          <label htmlFor="journal-q">{index.data.search_label}</label>
          <div className="search-row">
            <input id="journal-q" name="q" type="search" defaultValue={q ?? ''} maxLength={200} />
            <button type="submit" className="button">
              {index.data.search_button_label}
            </button>
          </div>
        </form>
      </div>
      {q && (
        <h2 className="results-heading" aria-live="polite">
          {fillTemplate(index.data.results_label, { count: posts.total_results_size, query: q })}
        </h2>
      )}
      {posts.results.length === 0 ? (
        <p className="empty">{index.data.empty_text}</p>
      ) : (
        <div className="card-grid">
          {posts.results.map((post, index) => (
            <PostCard key={post.id} post={post} headingLevel={q ? 3 : 2} priority={index === 0} />
          ))}
        </div>
      )}
      <Pagination
        page={page}
        totalPages={posts.total_pages}
        href={(p) => journalHref(lang, q, p)}
        settings={settings}
      />
      <Slices slices={index.data.slices} context={await sliceContextFor(lang)} />
    </main>
  )
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { lang } = await params
  const search = await searchParams
  const index = await getJournalIndex(lang)
  if (!index) return {}
  const q = one(search.q)?.trim() || undefined
  const page = pageNumber(one(search.page))
  const metadata = await documentMetadata(lang, index, {
    title: index.data.title,
    path: journalHref(lang, undefined, page),
  })
  return q ? { ...metadata, robots: { index: false, follow: true } } : metadata
}
