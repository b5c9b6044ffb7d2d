import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { isFilled } from '@prismicio/client'
import { ContentImage } from '@/components/ContentImage'
import { JsonLd } from '@/components/JsonLd'
import { Slices } from '@/components/Slices'
import { Tags } from '@/components/Tags'
import { getProject, getSettings, prerenderedUids, sliceContextFor } from '@/lib/content/queries'
import { absoluteUrl, documentMetadata } from '@/lib/content/seo'
import { formatDate } from '@/lib/content/text'

type Params = { params: Promise<{ lang: string; uid: string }> }

/**
 * A bounded set is prerendered (what the navigation links to, and the newest of each language:
 * `prerenderedUids`); every other project renders on its first visit and is kept from then on.
 */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const uids = await prerenderedUids('project', params.lang)
  return uids.map((uid) => ({ uid }))
}

/** Documents outside the prerendered set (and those published later) render on demand. */
export const dynamicParams = true

/** A project: cover, facts and its slices. */
export default async function ProjectPage({ params }: Params) {
  const { lang, uid } = await params
  const [project, settings] = await Promise.all([getProject(lang, uid), getSettings(lang)])
  if (!project) notFound()
  const { title, summary, cover, date, client, services } = project.data
  const s = settings.data
  return (
    <main id="main" tabIndex={-1}>
      <article>
        <header className="page-header">
          <h1>{title}</h1>
          {summary && <p className="lead">{summary}</p>}
          <dl className="facts">
            {client && (
              <div>
                <dt>{s.client_label}</dt>
                <dd>{client}</dd>
              </div>
            )}
            {services && (
              <div>
                <dt>{s.services_label}</dt>
                <dd>{services}</dd>
              </div>
            )}
            {date && (
              <div>
                <dt>{s.date_label}</dt>
                <dd>
                  <time dateTime={date}>{formatDate(date, lang)}</time>
                </dd>
              </div>
            )}
          </dl>
          <Tags tags={project.tags} label={s.tags_label} />
        </header>
        <ContentImage
          field={cover}
          className="cover"
          priority
          sizes="(min-width: 72rem) 72rem, 100vw"
        />
        <Slices slices={project.data.slices} context={await sliceContextFor(lang)} />
      </article>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'CreativeWork',
          name: title,
          headline: title,
          abstract: summary ?? undefined,
          url: absoluteUrl(project.url ?? `/${lang}`),
          inLanguage: lang,
          dateCreated: date ?? undefined,
          datePublished: project.first_publication_date,
          dateModified: project.last_publication_date,
          keywords: project.tags.join(', ') || undefined,
          image: isFilled.image(cover) ? cover.url : undefined,
          creator: { '@type': 'Organization', name: s.site_name },
          ...(client ? { sourceOrganization: { '@type': 'Organization', name: client } } : {}),
        }}
      />
    </main>
  )
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang, uid } = await params
  const project = await getProject(lang, uid)
  if (!project) return {}
  return documentMetadata(lang, project, {
    title: project.data.title,
    description: project.data.summary,
    image: project.data.cover,
  })
}
