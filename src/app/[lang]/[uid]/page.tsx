import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { SliceZone } from '@prismicio/react'
import { createClient } from '@/prismicio'
import { components } from '@/slices'

type Params = { params: Promise<{ lang: string; uid: string }> }

async function getPage(lang: string, uid: string) {
  return createClient()
    .getByUID('page', uid, { lang })
    .catch(() => notFound())
}

/** Every `page` document but the home page, in each of its languages. */
export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const pages = await createClient().getAllByType('page', { lang: params.lang })
  return pages.filter((page) => page.uid !== 'home').map((page) => ({ uid: page.uid }))
}

/** A page: the `page` document with the route's uid, in the route's language. */
export default async function Page({ params }: Params) {
  const { lang, uid } = await params
  const page = await getPage(lang, uid)
  return (
    <main id="main">
      <h1>{page.data.title}</h1>
      <SliceZone slices={page.data.slices} components={components} />
    </main>
  )
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang, uid } = await params
  const page = await getPage(lang, uid)
  return {
    title: page.data.meta_title || page.data.title,
    description: page.data.meta_description,
  }
}
