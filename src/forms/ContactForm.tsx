'use client'

import { useId, useMemo } from 'react'
import type { PublicMailOptions } from '@/lib/mail/options'
import { Field } from './Field'
import { FormStatus } from './FormStatus'
import { TrapField, useTrap } from './TrapField'
import { fieldErrorText, type FormMessages } from './messages'
import type { ContactFields } from './schemas'
import { LIMITS } from './limits'
import { useMailForm } from './useMailForm'
import styles from './forms.module.css'

/** The contact form: validated by the zod schema, sent with `emailjs.send` through the outbox. */
export default function ContactForm({
  labels,
  defaultSubject = '',
  messages,
  options,
  lang,
  contactEmail,
  labelledBy,
}: {
  labels: { name: string; email: string; subject: string; message: string }
  /** The subject the form starts with (the slice's: a page for reporting a barrier chooses it). */
  defaultSubject?: string
  messages: FormMessages
  options: PublicMailOptions
  lang: string
  contactEmail: string
  /** The id of the heading that names the form. */
  labelledBy?: string
}) {
  const id = useId()
  const trap = useTrap()
  const empty = useMemo<ContactFields>(
    () => ({ name: '', email: '', subject: defaultSubject, message: '' }),
    [defaultSubject],
  )
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
    status,
    ready,
    submit,
    preload,
  } = useMailForm<ContactFields>({ form: 'contact', empty, lang, options })

  const error = (name: keyof ContactFields) =>
    errors[name] ? fieldErrorText(messages, errors[name]?.message, LIMITS[name]) : undefined

  return (
    <form
      className={styles.form}
      aria-labelledby={labelledBy}
      noValidate
      onFocus={preload}
      onSubmit={(event) => handleSubmit((values) => submit(values, trap.take()))(event)}
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
      <TrapField id={id} label={messages.honeypotLabel} inputRef={trap.ref} />
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
