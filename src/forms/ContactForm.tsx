'use client'

import { useId, useRef } from 'react'
import type { PublicMailOptions } from '@/lib/mail/options'
import { Field } from './Field'
import { FormStatus } from './FormStatus'
import { fieldErrorText, type FormMessages } from './messages'
import type { ContactFields } from './schemas'
import { LIMITS } from './limits'
import { useMailForm } from './useMailForm'
import styles from './forms.module.css'

const EMPTY: ContactFields = { name: '', email: '', subject: '', message: '' }

/** The contact form: validated by the zod schema, sent with `emailjs.send` through the outbox. */
export default function ContactForm({
  labels,
  messages,
  options,
  lang,
  contactEmail,
}: {
  labels: { name: string; email: string; subject: string; message: string }
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
  } = useMailForm<ContactFields>({ form: 'contact', empty: EMPTY, lang, options })

  const error = (name: keyof ContactFields) =>
    errors[name] ? fieldErrorText(messages, errors[name]?.message, LIMITS[name]) : undefined

  return (
    <form
      className={styles.form}
      noValidate
      onFocus={preload}
      onSubmit={(event) =>
        handleSubmit((values) => submit(values, trap.current?.value ?? ''))(event)
      }
    >
      <Field
        id={`${id}-name`}
        label={labels.name}
        error={error('name')}
        registration={register('name')}
        autoComplete="name"
        maxLength={LIMITS.name}
      />
      <Field
        id={`${id}-email`}
        label={labels.email}
        error={error('email')}
        registration={register('email')}
        type="email"
        autoComplete="email"
        maxLength={LIMITS.email}
      />
      <Field
        id={`${id}-subject`}
        label={labels.subject}
        error={error('subject')}
        registration={register('subject')}
        maxLength={LIMITS.subject}
      />
      <Field
        id={`${id}-message`}
        label={labels.message}
        error={error('message')}
        registration={register('message')}
        multiline
        maxLength={LIMITS.message}
      />
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
        copyText={() => {
          const v = getValues()
          return `${v.name} <${v.email}>\n${v.subject}\n\n${v.message}`
        }}
        mailSubject={() => getValues().subject}
      />
    </form>
  )
}
