import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { PrismicRichText } from '@prismicio/react'
import { Pagination } from '@/components/Pagination'
import { ProjectCard } from '@/components/ProjectCard'
import { Slices } from '@/components/Slices'
import {
  getProjects,
  getProjectTags,
  getSettings,
  getWorkIndex,
  sliceContextFor,
} from '@/lib/content/queries'
import { documentMetadata } from '@/lib/content/seo'

type Props = {
  params: Promise<{ lang: string }>
  searchParams: Promise<{ tag?: string | string[]; page?: string | string[] }>
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** `?page=` as a page number; anything else is page 1. */
function pageNumber(value: string | undefined): number {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 ? page : 1
}

function workHref(lang: string, tag: string | undefined, page: number): string {
  const query = new URLSearchParams()
  if (tag) query.set('tag', tag)
  if (page > 1) query.set('page', String(page))
  const search = query.toString()
  return `/${lang}/work${search ? `?${search}` : ''}`
}

/** The work index: every project, newest first, filtered by tag and paged. */
export default async function WorkIndex({ params, searchParams }: Props) {
  const { lang } = await params
  const search = await searchParams
  const tag = one(search.tag) || undefined
  const page = pageNumber(one(search.page))
  const [index, settings, tags] = await Promise.all([
    getWorkIndex(lang),
    getSettings(lang),
    getProjectTags(lang),
  ])
  if (!index) notFound()
  const projects = await getProjects(lang, page, tag)
  if (page > 1 && page > projects.total_pages) notFound()
  return (
    <main id="main" tabIndex={-1}>
      <header className="page-header">
        <h1>{index.data.title}</h1>
        <div className="lead">
          <PrismicRichText field={index.data.intro} />
        </div>
      </header>
      <nav className="tag-filter" aria-label={index.data.filter_label ?? undefined}>
        <p className="eyebrow" aria-hidden="true">
          {index.data.filter_label}
        </p>
        <ul>
          <li>
            <a href={workHref(lang, undefined, 1)} aria-current={!tag ? 'page' : undefined}>
              {index.data.all_tags_label}
            </a>
          </li>
          {tags.map((t) => (
            <li key={t}>
              <a href={workHref(lang, t, 1)} aria-current={t === tag ? 'page' : undefined}>
                {t}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {projects.results.length === 0 ? (
        <p className="empty">{index.data.empty_text}</p>
      ) : (
        <div className="card-grid is-wide">
          {projects.results.map((project, index) => (
            <ProjectCard
              key={project.id}
              project={project}
              headingLevel={2}
              priority={index === 0}
            />
          ))}
        </div>
      )}
      <Pagination
        page={page}
        totalPages={projects.total_pages}
        href={(p) => workHref(lang, tag, p)}
        settings={settings}
      />
      <Slices slices={index.data.slices} context={await sliceContextFor(lang)} />
    </main>
  )
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { lang } = await params
  const search = await searchParams
  const index = await getWorkIndex(lang)
  if (!index) return {}
  const tag = one(search.tag) || undefined
  const page = pageNumber(one(search.page))
  const metadata = await documentMetadata(lang, index, {
    title: index.data.title,
    path: workHref(lang, tag, page),
  })
  // Filtered views are for people, not for the index: the unfiltered pages carry the content.
  return tag ? { ...metadata, robots: { index: false, follow: true } } : metadata
}
