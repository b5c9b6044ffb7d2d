'use client'

import { createContext, useContext, type ReactNode } from 'react'

/** The error page's words, from the settings: an error boundary is a client component. */
export type ErrorTextValue = { title: string; text: string; retryLabel: string }

const ErrorTextContext = createContext<ErrorTextValue | null>(null)

/** Gives the error page its words (the layout passes them from the settings). */
export function ErrorTextProvider({
  value,
  children,
}: {
  value: ErrorTextValue
  children: ReactNode
}) {
  return <ErrorTextContext.Provider value={value}>{children}</ErrorTextContext.Provider>
}

/** The error page's words; throws when used outside `ErrorTextProvider`. */
export function useErrorText(): ErrorTextValue {
  const value = useContext(ErrorTextContext)
  if (!value)
    throw new Error('useErrorText must be used inside <ErrorTextProvider> (see [lang]/layout.tsx).')
  return value
}
