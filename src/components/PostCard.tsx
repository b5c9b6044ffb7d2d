import type { Content } from '@prismicio/client'
import { ContentLink } from './ContentLink'
import { formatDate } from '@/lib/content/text'
import { ContentImage } from './ContentImage'

/** A post in a list: cover, date, title and excerpt; the whole card is one link. */
export function PostCard({
  post,
  headingLevel = 3,
  priority = false,
}: {
  post: Content.PostDocument
  headingLevel?: 2 | 3
  /**
   * The cover is the page's largest paint (the first card of a list at the top of its page):
   * fetched early, with high priority, not lazily once laid out.
   */
  priority?: boolean
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article className="card">
      <ContentImage
        field={post.data.cover}
        decorative
        className="card-image"
        priority={priority}
        sizes="(min-width: 64rem) 33vw, (min-width: 40rem) 50vw, 100vw"
      />
      <Heading className="card-title">
        <ContentLink document={post} className="card-link">
          {post.data.title}
        </ContentLink>
      </Heading>
      {post.data.date && (
        <p className="card-meta">
          <time dateTime={post.data.date}>{formatDate(post.data.date, post.lang)}</time>
        </p>
      )}
      {post.data.excerpt && <p className="card-text">{post.data.excerpt}</p>}
    </article>
  )
}
