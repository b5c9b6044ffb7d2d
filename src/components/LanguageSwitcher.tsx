import type { LanguageLink } from '@/lib/content/alternates'

/** Links to the current document in each language; the current one is marked for assistive tech. */
export function LanguageSwitcher({
  lang,
  links,
  label,
}: {
  lang: string
  links: LanguageLink[]
  label: string | null
}) {
  if (links.length < 2) return null
  return (
    <nav className="lang-switcher" aria-label={label ?? undefined}>
      <ul>
        {links.map((link) => (
          <li key={link.lang}>
            <a
              href={link.url}
              hrefLang={link.lang}
              lang={link.lang}
              aria-current={link.lang === lang ? 'true' : undefined}
              data-alternate={link.isAlternate ? 'document' : 'home'}
            >
              {link.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
