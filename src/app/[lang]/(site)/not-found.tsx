import { lang as rootLang } from 'next/root-params'
import { PrismicRichText } from '@prismicio/react'
import { getLanguages } from '@/lib/content/languages'
import { getSettings } from '@/lib/content/queries'

/**
 * The 404, in the route's language: Next gives not-found pages no params, but the root layout's
 * `lang` is a root param. Every text comes from that language's settings.
 */
export default async function NotFound() {
  const { ids, master } = await getLanguages()
  const routeLang: unknown = await rootLang()
  const lang = typeof routeLang === 'string' && ids.includes(routeLang) ? routeLang : master
  const settings = await getSettings(lang)
  return <NotFoundView lang={lang} settings={settings} />
}

/** The 404's body, also used by pages that know their language. */
export function NotFoundView({
  lang,
  settings,
}: {
  lang: string
  settings: Awaited<ReturnType<typeof getSettings>>
}) {
  return (
    <main id="main" tabIndex={-1} className="status-page">
      <h1>{settings.data.not_found_title}</h1>
      <div className="lead">
        <PrismicRichText field={settings.data.not_found_text} />
      </div>
      <a href={`/${lang}`} className="button">
        {settings.data.not_found_link_label}
      </a>
    </main>
  )
}
