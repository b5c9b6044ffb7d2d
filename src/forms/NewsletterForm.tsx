'use client'

import { useEffect, useId, useRef } from 'react'
import { useForm } from 'react-hook-form'
import type { PublicMailOptions } from '@/lib/mail/options'
import { Field } from './Field'
import { FormStatus } from './FormStatus'
import { fieldErrorText, type FormMessages } from './messages'
import type { NewsletterFields } from './schemas'
import { LIMITS } from './limits'
import { lazyZodResolver } from './resolver'
import { useMailDelivery } from './useMailDelivery'
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
    reset,
    subscribe,
    getValues,
    formState: { errors },
  } = useForm<NewsletterFields>({
    resolver: lazyZodResolver<NewsletterFields>('newsletterFields'),
    mode: 'onTouched',
    defaultValues: EMPTY,
  })
  const { status, ready, submit, saveDraft, preload } = useMailDelivery({
    form: 'newsletter',
    lang,
    options,
    restore: (fields) => reset({ ...EMPTY, ...fields }),
  })

  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ values }) => saveDraft(values as Record<string, string>),
      }),
    [subscribe, saveDraft],
  )

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
