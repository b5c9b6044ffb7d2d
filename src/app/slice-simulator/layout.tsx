import type { CSSProperties, ReactNode } from 'react'
import type { Metadata } from 'next'
import '../globals.css'
import { SIMULATOR_3D_LAYER } from './layers'

export const metadata: Metadata = { robots: { index: false, follow: false } }

/** The slice simulator's own root: Slice Machine frames it, without the site's header. */
export default function SimulatorLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ '--facet-3d-layer': SIMULATOR_3D_LAYER } as CSSProperties}>{children}</body>
    </html>
  )
}
