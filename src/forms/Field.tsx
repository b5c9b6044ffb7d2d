'use client'

import type { UseFormRegisterReturn } from 'react-hook-form'
import styles from './forms.module.css'

/** A labelled input or textarea whose error is announced and tied to it (aria-describedby). */
export function Field({
  id,
  label,
  error,
  registration,
  multiline,
  type = 'text',
  autoComplete,
  maxLength,
}: {
  id: string
  label: string
  error?: string
  registration: UseFormRegisterReturn
  multiline?: boolean
  type?: string
  autoComplete?: string
  maxLength: number
}) {
  const errorId = `${id}-error`
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': errorId,
    'aria-required': true,
    maxLength,
    ...registration,
  }
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea rows={8} {...common} />
      ) : (
        <input type={type} autoComplete={autoComplete} {...common} />
      )}
      <p id={errorId} className={styles.error} aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  )
}
