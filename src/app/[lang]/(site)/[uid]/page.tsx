import type { Metadata } from 'next'
import { notFound, redirect } from 'next/navigation'
import { PageView } from '@/components/PageView'
import { getAllRoutable, getPage } from '@/lib/content/queries'
import { documentMetadata } from '@/lib/content/seo'

type Params = { params: Promise<{ lang: string; uid: string }> }

/** Every page but the home page, in every language. */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const docs = await getAllRoutable()
  return docs
    .filter((doc) => doc.type === 'page' && doc.lang === params.lang && doc.uid !== 'home')
    .map((doc) => ({ uid: doc.uid! }))
}

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
