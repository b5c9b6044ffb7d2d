import type { Metadata } from 'next'
import { notFound, redirect } from 'next/navigation'
import { PageView } from '@/components/PageView'
import { getPage, prerenderedUids } from '@/lib/content/queries'
import { documentMetadata } from '@/lib/content/seo'

type Params = { params: Promise<{ lang: string; uid: string }> }

/**
 * A bounded set is prerendered (what the navigation links to, and the newest of each language:
 * `prerenderedUids`); every other page renders on its first visit and is kept from then on.
 */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const uids = await prerenderedUids('page', params.lang)
  return uids.filter((uid) => uid !== 'home').map((uid) => ({ uid }))
}

/** Documents outside the prerendered set (and those published later) render on demand. */
export const dynamicParams = true

/** A page built from slices at `/:lang/:uid`. */
export default async function Page({ params }: Params) {
  const { lang, uid } = await params
  if (uid === 'home') redirect(`/${lang}`)
  const page = await getPage(lang, uid)
  if (!page) notFound()
  return <PageView page={page} />
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang, uid } = await params
  const page = await getPage(lang, uid)
  if (!page) return {}
  return documentMetadata(lang, page, { title: page.data.title })
}
