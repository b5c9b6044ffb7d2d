import type { Content } from '@prismicio/client'
import { ContentLink } from './ContentLink'
import { ContentImage } from './ContentImage'

/** A project in a grid: cover, title and summary; the whole card is one link. */
export function ProjectCard({
  project,
  headingLevel = 3,
}: {
  project: Content.ProjectDocument
  headingLevel?: 2 | 3
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article className="card">
      <ContentImage
        field={project.data.cover}
        decorative
        className="card-image"
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
