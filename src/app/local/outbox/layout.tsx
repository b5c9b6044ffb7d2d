import type { ReactNode } from 'react'

/** The outbox viewer's own root layout: a local developer tool, outside the site's languages. */
export default function OutboxLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '2rem', lineHeight: 1.5 }}>
        {children}
      </body>
    </html>
  )
}
