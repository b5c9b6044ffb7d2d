'use client'

import { useCallback, useRef, type RefObject } from 'react'
import styles from './forms.module.css'

/**
 * The honeypot: a field off screen that people never see and bots fill. It has no `name` (it is
 * never part of a message), `autocomplete="off"`, an id no autofill heuristic reads as an address
 * or a URL, and the opt-out attributes of the common password managers, so that a browser's or
 * an assistive technology's fill leaves it alone. Should one fill it anyway, the form says so
 * plainly (`trapped`, useMailDelivery.ts) and `take` has emptied it for the next send.
 */
export function useTrap() {
  const ref = useRef<HTMLInputElement>(null)
  /** The trap's value, and the trap emptied. */
  const take = useCallback(() => {
    const value = ref.current?.value ?? ''
    if (ref.current) ref.current.value = ''
    return value
  }, [])
  return { ref, take }
}

export function TrapField({
  id,
  label,
  inputRef,
}: {
  id: string
  label: string
  /** `useTrap().ref`. */
  inputRef: RefObject<HTMLInputElement | null>
}) {
  return (
    <div className={styles.trap} aria-hidden="true">
      <label htmlFor={`${id}-hp`}>{label}</label>
      <input
        ref={inputRef}
        id={`${id}-hp`}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        data-1p-ignore=""
        data-lpignore="true"
        data-bwignore=""
        data-form-type="other"
        data-trap
      />
    </div>
  )
}
