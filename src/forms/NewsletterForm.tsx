'use client'

import { useId } from 'react'
import type { PublicMailOptions } from '@/lib/mail/options'
import { Field } from './Field'
import { FormStatus } from './FormStatus'
import { TrapField, useTrap } from './TrapField'
import { fieldErrorText, type FormMessages } from './messages'
import type { NewsletterFields } from './schemas'
import { LIMITS } from './limits'
import { useMailForm } from './useMailForm'
import styles from './forms.module.css'

const EMPTY: NewsletterFields = { email: '' }

/**
 * The newsletter sign-up, sent with `emailjs.sendForm`: the form sent is built from the message
 * saved in the outbox (its e-mail, `message_id` and `lang`), the same on the first attempt and
 * on every retry (`formOf` in delivery.ts says why not this live form).
 */
export default function NewsletterForm({
  label,
  messages,
  options,
  lang,
  contactEmail,
  labelledBy,
}: {
  label: string
  messages: FormMessages
  options: PublicMailOptions
  lang: string
  contactEmail: string
  /** The id of the heading that names the form. */
  labelledBy?: string
}) {
  const id = useId()
  const trap = useTrap()
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
      aria-labelledby={labelledBy}
      noValidate
      onFocus={preload}
      onSubmit={(event) => handleSubmit((values) => submit(values, trap.take()))(event)}
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
        copyText={() => getValues().email}
        mailSubject={() => label}
      />
    </form>
  )
}
