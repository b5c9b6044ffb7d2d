'use client'

import { useState } from 'react'
import type { FormMessages } from './messages'
import type { DeliveryStatus } from './useMailDelivery'
import styles from './forms.module.css'

/**
 * The form's status region (aria-live): sending, sent with the message id, queued, held by a
 * trap, or a refusal in plain words with "copy message" and a mailto link to the site's address.
 */
export function FormStatus({
  status,
  messages,
  contactEmail,
  copyText,
  mailSubject,
}: {
  status: DeliveryStatus
  messages: FormMessages
  contactEmail: string
  /** The message as text, for "copy message" and the mailto body. */
  copyText: () => string
  mailSubject: () => string
}) {
  const [copied, setCopied] = useState(false)
  let body: React.ReactNode = null
  if (status.kind === 'sending') body = <p>{messages.sending}</p>
  else if (status.kind === 'too_fast') body = <p>{messages.tooFast}</p>
  else if (status.kind === 'trapped') body = <p>{messages.trapped || messages.tooFast}</p>
  else if (status.kind === 'sent' || status.kind === 'queued')
    body = (
      <>
        <p>{status.kind === 'sent' ? messages.success : messages.queued}</p>
        <p>
          {messages.messageIdLabel} <code data-message-id>{status.id}</code>
        </p>
      </>
    )
  else if (status.kind === 'failed') {
    const text =
      status.error in messages.failures
        ? messages.failures[status.error as keyof FormMessages['failures']]
        : messages.failures.misconfigured
    const href = `mailto:${contactEmail}?subject=${encodeURIComponent(mailSubject())}&body=${encodeURIComponent(copyText())}`
    body = (
      <>
        <p>{text}</p>
        <p className={styles.actions}>
          <button
            type="button"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(copyText())
                setCopied(true)
              } catch {
                setCopied(false)
              }
            }}
          >
            {copied ? messages.copied : messages.copy}
          </button>
          {contactEmail && <a href={href}>{messages.mailto}</a>}
        </p>
      </>
    )
  }
  return (
    <div
      role="status"
      aria-live="polite"
      className={styles.status}
      data-status={status.kind}
      data-error={status.kind === 'failed' ? status.error : undefined}
    >
      {body}
    </div>
  )
}
