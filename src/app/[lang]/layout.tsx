import type { ReactNode } from 'react'
import { notFound } from 'next/navigation'
import { getLanguages } from '@/lib/content/languages'
import { createClient } from '@/prismicio'
import { inter } from '@/styles/fonts'
import '../globals.css'

/** Every language of the repository is a static root. */
export async function generateStaticParams() {
  const { ids } = await getLanguages()
  return ids.map((lang) => ({ lang }))
}

export const dynamicParams = false

/** The root layout of each language: `<html lang>` follows the route. */
export default async function LangLayout({
  children,
  params,
}: {
  children: ReactNode
  params: Promise<{ lang: string }>
}) {
  const { lang } = await params
  const { ids } = await getLanguages()
  if (!ids.includes(lang)) notFound()
  const settings = await createClient().getSingle('settings', { lang })
  return (
    <html lang={lang} className={inter.variable}>
      <body>
        <a className="skip-link" href="#main">
          {settings.data.skip_link_label}
        </a>
        {children}
      </body>
    </html>
  )
}
