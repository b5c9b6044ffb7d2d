import type { Content } from '@prismicio/client'
import { fillTemplate } from '@/lib/content/text'

/** Previous and next page links, with the position; every word comes from the settings. */
export function Pagination({
  page,
  totalPages,
  href,
  settings,
}: {
  page: number
  totalPages: number
  href: (page: number) => string
  settings: Content.SettingsDocument
}) {
  if (totalPages <= 1) return null
  const { pagination_label, previous_page_label, next_page_label, page_of_label } = settings.data
  return (
    <nav className="pagination" aria-label={pagination_label ?? undefined}>
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev" className="button is-quiet">
          {previous_page_label}
        </a>
      ) : (
        <span />
      )}
      <p>{fillTemplate(page_of_label, { page, total: totalPages })}</p>
      {page < totalPages ? (
        <a href={href(page + 1)} rel="next" className="button is-quiet">
          {next_page_label}
        </a>
      ) : (
        <span />
      )}
    </nav>
  )
}
