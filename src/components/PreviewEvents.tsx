'use client'

import { useEffect } from 'react'
import { useRouter } from 'next/navigation'

/**
 * Answers the Prismic toolbar's events in hosted mode: a changed draft refreshes the page, and
 * leaving the preview ends it (`/api/exit-preview`) before refreshing. It stands in for
 * @prismicio/next's `PrismicPreview`, whose import put about 30 KB of client code on every page.
 */
export function PreviewEvents() {
  const router = useRouter()
  useEffect(() => {
    const update = (event: Event) => {
      event.preventDefault()
      router.refresh()
    }
    const end = (event: Event) => {
      event.preventDefault()
      void fetch('/api/exit-preview').finally(() => router.refresh())
    }
    window.addEventListener('prismicPreviewUpdate', update)
    window.addEventListener('prismicPreviewEnd', end)
    return () => {
      window.removeEventListener('prismicPreviewUpdate', update)
      window.removeEventListener('prismicPreviewEnd', end)
    }
  }, [router])
  return null
}
