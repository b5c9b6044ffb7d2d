import type { PrismicDocument } from '@prismicio/client'
import { getLanguageLinks } from '@/lib/content/alternates'
import { getSettings } from '@/lib/content/queries'
import { LanguageSwitcher } from './LanguageSwitcher'

/** The language switcher for a document (or, without one, for each language's home). */
export async function SwitcherSlot({
  lang,
  doc,
}: {
  lang: string
  doc?: PrismicDocument | undefined
}) {
  const [settings, links] = await Promise.all([getSettings(lang), getLanguageLinks(lang, doc)])
  return (
    <LanguageSwitcher lang={lang} links={links} label={settings.data.language_switcher_label} />
  )
}
