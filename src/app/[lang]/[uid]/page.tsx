import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { SliceZone } from '@prismicio/react'
import { createClient } from '@/prismicio'
import { components } from '@/slices'

// Stand-in for the site engineer's page route (issue 6 needs /:lang/contact to test the forms):
// at merge, keep the site branch's version of this file.

type Params = { params: Promise<{ lang: string; uid: string }> }

async function getPage(lang: string, uid: string) {
  return createClient()
    .getByUID('page', uid, { lang })
    .catch(() => notFound())
}

export async function generateStaticParams({ params }: { params: { lang: string } }) {
  const pages = await createClient().getAllByType('page', { lang: params.lang })
  return pages.filter((p) => p.uid !== 'home').map((p) => ({ uid: p.uid! }))
}

/** A page built from slices at `/:lang/:uid`. */
export default async function Page({ params }: Params) {
  const { lang, uid } = await params
  const page = await getPage(lang, uid)
  return (
    <main id="main">
      <h1>{page.data.title}</h1>
      <SliceZone
        slices={page.data.slices}
        components={components}
        context={{ lang, title: page.data.title }}
      />
    </main>
  )
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { lang, uid } = await params
  const page = await getPage(lang, uid)
  return { title: page.data.meta_title || page.data.title, description: page.data.meta_description }
}
