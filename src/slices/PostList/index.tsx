import { isFilled, type Content } from '@prismicio/client'
import { ContentLink } from '@/components/ContentLink'
import type { SliceComponentProps } from '@prismicio/react'
import { PostCard } from '@/components/PostCard'
import { getPosts } from '@/lib/content/queries'
import { sliceContext } from '@/lib/content/slice-context'

/** Props for `PostList`. */
export type PostListProps = SliceComponentProps<Content.PostListSlice>

/** The newest journal posts. */
export default async function PostList({ slice, context }: PostListProps) {
  const { lang } = sliceContext(context)
  const { heading, limit, link, link_label } = slice.primary
  const posts = await getPosts(
    lang,
    1,
    undefined,
    Math.min(Math.max(Math.round(limit ?? 3), 1), 12),
  )
  return (
    <section
      className="slice slice-post-list"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      <div className="section-head">
        {isFilled.keyText(heading) && <h2>{heading}</h2>}
        {isFilled.link(link) && isFilled.keyText(link_label) && (
          <ContentLink field={link} className="text-link">
            {link_label}
          </ContentLink>
        )}
      </div>
      <div className="card-grid">
        {posts.results.map((post) => (
          <PostCard key={post.id} post={post} />
        ))}
      </div>
    </section>
  )
}
