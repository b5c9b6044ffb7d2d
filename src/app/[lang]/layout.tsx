import type { ReactNode } from 'react'
import type { Metadata, Viewport } from 'next'
import { SITE_ICON_URL } from '@/lib/site-icon'
import { notFound } from 'next/navigation'
import { getToolbarSrc } from '@prismicio/client'
import { PreviewEvents } from '@/components/PreviewEvents'
import { getConfig } from '@/lib/config'
import { directionOf } from '@/lib/direction'
import { getLanguages } from '@/lib/content/languages'
import { getSettings } from '@/lib/content/queries'
import { contentEndpoint, repositoryName } from '@/prismicio'
import '../globals.css'

type Props = { params: Promise<{ lang: string }> }

/** Every language of the repository is a static root. */
export async function generateStaticParams() {
  const { ids } = await getLanguages()
  return ids.map((lang) => ({ lang }))
}

/**
 * Not `false`: Next.js applies a segment's `dynamicParams: false` to every route below it, which
 * would make any post, project or page outside the prerendered set a 404. An unknown language
 * never gets here: the proxy answers it with the master language's 404, and the layout checks.
 */
export const dynamicParams = true

/** The site-wide defaults; each page overrides them from its document. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang } = await params
  const settings = await getSettings(lang)
  return {
    metadataBase: new URL(getConfig().siteUrl),
    title: { default: settings.data.site_name ?? '', template: `%s — ${settings.data.site_name}` },
    description: settings.data.site_description,
    applicationName: settings.data.site_name ?? undefined,
    icons: { icon: { url: SITE_ICON_URL, type: 'image/svg+xml' } },
  }
}

export const viewport: Viewport = {
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f6f3' },
    { media: '(prefers-color-scheme: dark)', color: '#111114' },
  ],
}

/**
 * The root layout of each language: `<html lang dir>` follows the route (the direction from the
 * language alone: src/lib/direction.ts), so every page of a language, its 404 included, is
 * server-rendered in its direction. The header, footer, 404
 * and error page live one level down, in `(site)/layout.tsx`: Next server-renders a 404 only
 * when its boundary sits below the root layout.
 */
export default async function LangLayout({ children, params }: Props & { children: ReactNode }) {
  const { lang } = await params
  const { ids } = await getLanguages()
  if (!ids.includes(lang)) notFound()
  const settings = await getSettings(lang)
  const hosted = getConfig().content.mode === 'hosted'
  return (
    <html lang={lang} dir={directionOf(lang)}>
      <body>
        <a className="skip-link" href="#main">
          {settings.data.skip_link_label}
        </a>
        {children}
        {/* Prismic's toolbar script comes from Prismic's CDN: hosted mode only. */}
        {hosted && (
          <>
            <script async defer src={getToolbarSrc(repositoryName(contentEndpoint()))} />
            <PreviewEvents />
          </>
        )}
      </body>
    </html>
  )
}
