import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { isFilled } from '@prismicio/client'
import { PrismicRichText } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'
import { JsonLd } from '@/components/JsonLd'
import { Tags } from '@/components/Tags'
import { getAllRoutable, getPost, getSettings } from '@/lib/content/queries'
import { absoluteUrl, documentMetadata } from '@/lib/content/seo'
import { formatDate } from '@/lib/content/text'

type Params = { params: Promise<{ lang: string; uid: string }> }

/** Every post, in every language. */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const docs = await getAllRoutable()
  return docs
    .filter((doc) => doc.type === 'post' && doc.lang === params.lang)
    .map((doc) => ({ uid: doc.uid! }))
}

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
