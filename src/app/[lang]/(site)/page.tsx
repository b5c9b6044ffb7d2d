import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { PageView } from '@/components/PageView'
import { getPage } from '@/lib/content/queries'
import { documentMetadata } from '@/lib/content/seo'

type Params = { params: Promise<{ lang: string }> }

/** The home page: the `page` document with uid `home`, in the route's language. */
export default async function Home({ params }: Params) {
  const { lang } = await params
  const page = await getPage(lang, 'home')
  if (!page) notFound()
  return <PageView page={page} />
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang } = await params
  const page = await getPage(lang, 'home')
  if (!page) return {}
  return documentMetadata(lang, page, { title: page.data.title })
}
