import type { ReactNode } from 'react'
import { ErrorTextProvider } from '@/components/ErrorText'
import { JsonLd } from '@/components/JsonLd'
import { SiteFooter } from '@/components/SiteFooter'
import { SiteHeader } from '@/components/SiteHeader'
import { getNavigation, getSettings } from '@/lib/content/queries'
import { organizationJsonLd, plainText } from '@/lib/content/seo'

/**
 * The frame of every page, the 404 and the error page: header (with the `switcher` slot, the
 * language switcher for the document on screen) and footer.
 */
export default async function SiteLayout({
  children,
  switcher,
  params,
}: {
  children: ReactNode
  switcher: ReactNode
  params: Promise<{ lang: string }>
}) {
  const { lang } = await params
  const [settings, navigation, organization] = await Promise.all([
    getSettings(lang),
    getNavigation(lang),
    organizationJsonLd(lang),
  ])
  return (
    <>
      <SiteHeader lang={lang} settings={settings} navigation={navigation} switcher={switcher} />
      <ErrorTextProvider
        value={{
          title: settings.data.error_title ?? '',
          text: plainText(settings.data.error_text),
          retryLabel: settings.data.error_retry_label ?? '',
        }}
      >
        {children}
      </ErrorTextProvider>
      <SiteFooter settings={settings} navigation={navigation} />
      <JsonLd data={organization} />
    </>
  )
}
