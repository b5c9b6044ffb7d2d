import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { isFilled } from '@prismicio/client'
import { PrismicRichText } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'
import { JsonLd } from '@/components/JsonLd'
import { Tags } from '@/components/Tags'
import { getPost, getSettings, prerenderedUids } from '@/lib/content/queries'
import { absoluteUrl, documentMetadata } from '@/lib/content/seo'
import { formatDate } from '@/lib/content/text'

type Params = { params: Promise<{ lang: string; uid: string }> }

/**
 * A bounded set is prerendered (what the navigation links to, and the newest of each language:
 * `prerenderedUids`); every other post renders on its first visit and is kept from then on.
 */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const uids = await prerenderedUids('post', params.lang)
  return uids.map((uid) => ({ uid }))
}

/** Documents outside the prerendered set (and those published later) render on demand. */
export const dynamicParams = true

/** A journal post. */
export default async function PostPage({ params }: Params) {
  const { lang, uid } = await params
  const [post, settings] = await Promise.all([getPost(lang, uid), getSettings(lang)])
  if (!post) notFound()
  const { title, date, author, cover, excerpt, body } = post.data
  const s = settings.data
  return (
    <main id="main" tabIndex={-1}>
      <article className="post">
        <header className="page-header">
          <h1>{title}</h1>
          <p className="byline">
            {author && (
              <span>
                {s.by_label} {author}
              </span>
            )}
            {date && <time dateTime={date}>{formatDate(date, lang)}</time>}
          </p>
          <Tags tags={post.tags} label={s.tags_label} />
        </header>
        <ContentImage
          field={cover}
          className="cover"
          priority
          sizes="(min-width: 72rem) 72rem, 100vw"
        />
        <div className="prose">
          <PrismicRichText field={body} />
        </div>
      </article>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: title,
          description: excerpt ?? undefined,
          url: absoluteUrl(post.url ?? `/${lang}`),
          mainEntityOfPage: absoluteUrl(post.url ?? `/${lang}`),
          inLanguage: lang,
          datePublished: date ?? post.first_publication_date,
          dateModified: post.last_publication_date,
          keywords: post.tags.join(', ') || undefined,
          image: isFilled.image(cover) ? cover.url : undefined,
          author: author ? { '@type': 'Person', name: author } : undefined,
          publisher: { '@type': 'Organization', name: s.site_name },
        }}
      />
    </main>
  )
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang, uid } = await params
  const post = await getPost(lang, uid)
  if (!post) return {}
  return documentMetadata(lang, post, {
    title: post.data.title,
    description: post.data.excerpt,
    image: post.data.cover,
    type: 'article',
  })
}
