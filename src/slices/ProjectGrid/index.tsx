import { isFilled, type Content } from '@prismicio/client'
import { ContentLink } from '@/components/ContentLink'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ProjectCard } from '@/components/ProjectCard'
import { getProjects, getProjectsByIds } from '@/lib/content/queries'
import { sliceContext } from '@/lib/content/slice-context'

/** Props for `ProjectGrid`. */
export type ProjectGridProps = SliceComponentProps<Content.ProjectGridSlice>

/** A grid of projects: the newest few, or those chosen by hand. */
export default async function ProjectGrid({ slice, context }: ProjectGridProps) {
  const { lang } = sliceContext(context)
  const projects =
    slice.variation === 'selected'
      ? await getProjectsByIds(
          lang,
          slice.primary.projects.flatMap((item) =>
            isFilled.contentRelationship(item.project) ? [item.project.id] : [],
          ),
        )
      : (await getProjects(lang, 1, undefined, clampLimit(slice.primary.limit))).results
  const { heading, intro, link, link_label } = slice.primary
  return (
    <section
      className="slice slice-project-grid"
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
      {isFilled.richText(intro) && (
        <div className="section-intro">
          <PrismicRichText field={intro} />
        </div>
      )}
      <div className="card-grid">
        {projects.map((project) => (
          <ProjectCard key={project.id} project={project} />
        ))}
      </div>
    </section>
  )
}

function clampLimit(limit: number | null): number {
  return Math.min(Math.max(Math.round(limit ?? 3), 1), 12)
}
