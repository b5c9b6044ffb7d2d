'use client'

import { useId, useRef } from 'react'
import type { PublicMailOptions } from '@/lib/mail/options'
import { Field } from './Field'
import { FormStatus } from './FormStatus'
import { fieldErrorText, type FormMessages } from './messages'
import type { NewsletterFields } from './schemas'
import { LIMITS } from './limits'
import { useMailForm } from './useMailForm'
import styles from './forms.module.css'

const EMPTY: NewsletterFields = { email: '' }

/** The newsletter sign-up: the `<form>` itself is sent with `emailjs.sendForm`. */
export default function NewsletterForm({
  label,
  messages,
  options,
  lang,
  contactEmail,
}: {
  label: string
  messages: FormMessages
  options: PublicMailOptions
  lang: string
  contactEmail: string
}) {
  const id = useId()
  const trap = useRef<HTMLInputElement>(null)
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
    status,
    ready,
    submit,
    preload,
  } = useMailForm<NewsletterFields>({ form: 'newsletter', empty: EMPTY, lang, options })

  return (
    <form
      className={styles.form}
      noValidate
      onFocus={preload}
      onSubmit={(event) => {
        const form = event.currentTarget
        return handleSubmit((values) => submit(values, trap.current?.value ?? '', form))(event)
      }}
    >
      <Field
        id={`${id}-email`}
        label={label}
        error={
          errors.email ? fieldErrorText(messages, errors.email.message, LIMITS.email) : undefined
        }
        registration={register('email')}
        type="email"
        autoComplete="email"
        maxLength={LIMITS.email}
      />
      {/* Filled just before sending, so sendForm carries them. */}
      <input type="hidden" name="message_id" defaultValue="" />
      <input type="hidden" name="lang" defaultValue={lang} />
      {/* No name: the trap is never part of what sendForm sends. */}
      <div className={styles.trap} aria-hidden="true">
        <label htmlFor={`${id}-website`}>{messages.honeypotLabel}</label>
        <input
          ref={trap}
          id={`${id}-website`}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          data-trap
        />
      </div>
      <button
        type="submit"
        className={styles.submit}
        disabled={!ready || status.kind === 'sending' || status.kind === 'queued'}
      >
        {messages.submit}
      </button>
      <FormStatus
        status={status}
        messages={messages}
        contactEmail={contactEmail}
        copyText={() => getValues().email}
        mailSubject={() => label}
      />
    </form>
  )
}
