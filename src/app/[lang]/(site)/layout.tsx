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
      {/* No paint of the page before its footer is parsed. Chromium paints a document it is still
          parsing once its parser yields (a slow phone, a busy CPU): at 8× slower CPU a first paint
          came with the header's menu but not its language switcher, or a hero's text without its
          poster, and both moved when the rest arrived (layout shifts up to 0.007). The whole HTML
          is a few tens of KB and the largest paint is the hero's poster, which comes later. React
          puts the link in the head; engines without `rel=expect` ignore it. */}
      <link rel="expect" href="#site-footer" blocking="render" />
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
