import type { ReactNode } from 'react'
import type { Metadata } from 'next'
import '../globals.css'

export const metadata: Metadata = { robots: { index: false, follow: false } }

/** The slice simulator's own root: Slice Machine frames it, without the site's header. */
export default function SimulatorLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
