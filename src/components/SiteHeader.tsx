import type { ReactNode } from 'react'
import type { Content } from '@prismicio/client'
import { ContentLink } from './ContentLink'

/** The header: the site's name (home link), the main menu and the language switcher. */
export function SiteHeader({
  lang,
  settings,
  navigation,
  switcher,
}: {
  lang: string
  settings: Content.SettingsDocument
  navigation: Content.NavigationDocument
  switcher: ReactNode
}) {
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <a href={`/${lang}`} className="brand">
          {settings.data.site_name}
        </a>
        <nav className="main-nav" aria-label={settings.data.main_nav_label ?? undefined}>
          <ul>
            {navigation.data.links.map((item, i) => (
              <li key={i}>
                <ContentLink field={item.link}>{item.label}</ContentLink>
              </li>
            ))}
          </ul>
        </nav>
        {switcher}
      </div>
    </header>
  )
}
