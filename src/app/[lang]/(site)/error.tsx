'use client'

import { useEffect } from 'react'
import { useErrorText } from '@/components/ErrorText'

/** The error page: inside the layout, so the header and footer stay; its words are the CMS's. */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string }
  reset: () => void
}) {
  const { title, text, retryLabel } = useErrorText()
  useEffect(() => {
    console.error(error)
  }, [error])
  return (
    <main id="main" tabIndex={-1} className="status-page">
      <h1>{title}</h1>
      <p className="lead">{text}</p>
      <button type="button" className="button" onClick={reset}>
        {retryLabel}
      </button>
    </main>
  )
}
