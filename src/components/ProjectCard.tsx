import type { Content } from '@prismicio/client'
import { ContentLink } from './ContentLink'
import { ContentImage } from './ContentImage'

/** A project in a grid: cover, title and summary; the whole card is one link. */
export function ProjectCard({
  project,
  headingLevel = 3,
  priority = false,
}: {
  project: Content.ProjectDocument
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
        field={project.data.cover}
        decorative
        className="card-image"
        priority={priority}
        sizes="(min-width: 64rem) 33vw, (min-width: 40rem) 50vw, 100vw"
      />
      <Heading className="card-title">
        <ContentLink document={project} className="card-link">
          {project.data.title}
        </ContentLink>
      </Heading>
      {project.data.summary && <p className="card-text">{project.data.summary}</p>}
    </article>
  )
}
