import type { Metadata } from 'next'
import { getSettings } from '@/lib/content/queries'
import { NotFoundView } from '../not-found'

type Params = { params: Promise<{ lang: string }> }

/**
 * The localized 404 as an ordinary prerendered page, one per language. The proxy
 * (src/proxy.ts) rewrites every unknown path to it with status 404: unlike a `notFound()`
 * under the dynamic root layout, it renders in full on the server, inside the header and footer.
 */
export default async function NotFoundPage({ params }: Params) {
  const { lang } = await params
  return <NotFoundView lang={lang} settings={await getSettings(lang)} />
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang } = await params
  const settings = await getSettings(lang)
  return {
    title: settings.data.not_found_title ?? undefined,
    robots: { index: false, follow: true },
  }
}
