import type { Content } from '@prismicio/client'
import { ContentLink } from './ContentLink'
import { PrismicRichText } from '@prismicio/react'

/** The footer: the studio's words, the menu again with the settings' footer links, and the social links. */
export function SiteFooter({
  settings,
  navigation,
}: {
  settings: Content.SettingsDocument
  navigation: Content.NavigationDocument
}) {
  const { footer_text, social_links, footer_links, footer_nav_label, social_label, site_name } =
    settings.data
  return (
    <footer className="site-footer" id="site-footer">
      <div className="site-footer-inner">
        <div className="footer-about">
          <p className="brand">{site_name}</p>
          <PrismicRichText field={footer_text} />
        </div>
        <nav aria-label={footer_nav_label ?? undefined}>
          <ul className="footer-links">
            {navigation.data.links.map((item, i) => (
              <li key={i}>
                <ContentLink field={item.link}>{item.label}</ContentLink>
              </li>
            ))}
            {/* The settings' own footer links: the accessibility statement, legal pages. */}
            {(footer_links ?? []).map((item, i) => (
              <li key={`footer-${i}`}>
                <ContentLink field={item.link}>{item.label}</ContentLink>
              </li>
            ))}
          </ul>
        </nav>
        {social_links.length > 0 && (
          <nav aria-label={social_label ?? undefined}>
            <ul className="footer-links">
              {social_links.map((item, i) => (
                <li key={i}>
                  <ContentLink field={item.link} rel="me noopener">
                    {item.label}
                  </ContentLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </footer>
  )
}
