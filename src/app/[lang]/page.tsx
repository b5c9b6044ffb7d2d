import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { SliceZone } from '@prismicio/react'
import { createClient } from '@/prismicio'
import { components } from '@/slices'

type Params = { params: Promise<{ lang: string }> }

async function getHome(lang: string) {
  return createClient()
    .getByUID('page', 'home', { lang })
    .catch(() => notFound())
}

/** The home page: the `page` document with uid `home`, in the route's language. */
export default async function Home({ params }: Params) {
  const { lang } = await params
  const page = await getHome(lang)
  return (
    <main id="main">
      <h1>{page.data.title}</h1>
      <SliceZone slices={page.data.slices} components={components} />
    </main>
  )
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang } = await params
  const page = await getHome(lang)
  return {
    title: page.data.meta_title || page.data.title,
    description: page.data.meta_description,
  }
}
