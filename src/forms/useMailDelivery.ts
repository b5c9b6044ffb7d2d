'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import type { MailErrorKind } from '@/lib/mail/errors'
import type { PublicMailOptions } from '@/lib/mail/options'
import type { DeliveryResult } from './delivery'
import type { OutboxMessage } from './outbox'
import type { FormKind } from './schemas'

/** Submissions faster than this after the form appeared are taken for a bot's (the time trap). */
export const MIN_FILL_MS = 1_500

/** How long to wait before trying again when the sending code itself could not be loaded. */
const RETRY_UNREACHABLE_MS = 10_000

/** What the form's status region says. */
export type DeliveryStatus =
  | { kind: 'idle' }
  | { kind: 'sending'; id: string }
  | { kind: 'sent'; id: string }
  | { kind: 'queued'; id: string }
  | { kind: 'failed'; id: string; error: MailErrorKind }
  | { kind: 'too_fast' }
  /** The trap field was filled (a bot, or an autofill): nothing sent, and the form says so. */
  | { kind: 'trapped' }

type Draft = { id: string; fields: Record<string, string> }

function newId(): string {
  return crypto.randomUUID()
}

function readDraft(key: string): Draft | undefined {
  try {
    const raw = localStorage.getItem(key)
    if (!raw) return undefined
    const draft = JSON.parse(raw) as Draft
    return typeof draft.id === 'string' && draft.fields && typeof draft.fields === 'object'
      ? draft
      : undefined
  } catch {
    return undefined
  }
}

function writeDraft(key: string, draft: Draft | undefined): void {
  try {
    if (draft) localStorage.setItem(key, JSON.stringify(draft))
    else localStorage.removeItem(key)
  } catch {
    // No storage (private mode): the draft lives only in the page.
  }
}

/**
 * A form's delivery: its message id, its draft (kept in localStorage as the visitor types, so a
 * reload keeps it), the honeypot and time trap, the outbox (saved before sending, retried with
 * backoff, on `online` and on the next visit), and the status the form announces.
 */
export function useMailDelivery({
  form,
  lang,
  options,
  restore,
}: {
  form: FormKind
  lang: string
  options: PublicMailOptions
  /** Puts saved fields back into the form (a draft, or a message that was refused). */
  restore: (fields: Record<string, string>) => void
}) {
  const draftKey = `facet-draft:${form}:${lang}`
  const [status, setStatus] = useState<DeliveryStatus>({ kind: 'idle' })
  const [ready, setReady] = useState(false)
  const mountedAt = useRef(0)
  const busy = useRef(false)
  const messageId = useRef('')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const restoreRef = useRef(restore)
  useEffect(() => {
    restoreRef.current = restore
  })

  const onResult = useCallback(
    (result: DeliveryResult) => {
      const { id } = result.message
      if (result.ok) {
        setStatus({ kind: 'sent', id })
        if (messageId.current === id) {
          messageId.current = newId()
          writeDraft(draftKey, undefined)
          restoreRef.current({})
        }
      } else if (result.error.retryable) setStatus({ kind: 'queued', id })
      else setStatus({ kind: 'failed', id, error: result.error.kind })
    },
    [draftKey],
  )

  const flush = useCallback(
    async function flushNow(force = false): Promise<void> {
      clearTimeout(timer.current)
      let wait: number | undefined
      try {
        const { flushOutbox } = await import('./delivery')
        wait = await flushOutbox(form, options, onResult, force)
      } catch {
        // The sending code or the outbox is out of reach for now (offline, storage blocked): the
        // messages stay saved; try again later, on `online`, or on the next visit.
        wait = RETRY_UNREACHABLE_MS
      }
      if (wait !== undefined) timer.current = setTimeout(() => void flushNow(), wait)
    },
    [form, options, onResult],
  )

  useEffect(() => {
    mountedAt.current = Date.now()
    const draft = readDraft(draftKey)
    messageId.current = draft?.id ?? newId()
    if (draft) restoreRef.current(draft.fields)
    setReady(true)

    let cancelled = false
    // The previous visit's messages: show where they stand, then retry the pending ones.
    void import('./outbox')
      .then(async ({ listMessages }) => {
        const mine = (await listMessages()).filter((m: OutboxMessage) => m.form === form)
        if (cancelled || mine.length === 0) return
        const last = mine[mine.length - 1]
        if (last.state === 'held') {
          messageId.current = last.id
          restoreRef.current(last.fields)
          setStatus({ kind: 'failed', id: last.id, error: last.lastError ?? 'misconfigured' })
        } else setStatus({ kind: 'queued', id: last.id })
        await flush(true)
      })
      .catch(() => {
        // No IndexedDB here (blocked storage): nothing was saved on an earlier visit to resume.
      })
    const online = () => void flush(true)
    window.addEventListener('online', online)
    return () => {
      cancelled = true
      clearTimeout(timer.current)
      window.removeEventListener('online', online)
    }
  }, [draftKey, form, flush])

  /** Keeps the draft as the visitor types. */
  const saveDraft = useCallback(
    (fields: Record<string, string>) => {
      if (!messageId.current) return
      const empty = Object.values(fields).every((v) => !v)
      writeDraft(draftKey, empty ? undefined : { id: messageId.current, fields })
    },
    [draftKey],
  )

  /**
   * Sends the visitor's fields once: a second submit while the first is in flight does nothing.
   * `honeypot` is the trap field's value. The message saved here (its id among its fields) is
   * what every attempt sends, the first one and each retry.
   */
  const submit = useCallback(
    async (fields: Record<string, string>, honeypot: string) => {
      if (busy.current) return
      busy.current = true
      try {
        const id = messageId.current
        if (honeypot) {
          // The hidden field was filled: a bot, or a browser's or an assistive technology's fill.
          // Nothing is sent, and the form says so plainly, never "sent": a person keeps the text
          // and sends again (the form has emptied the trap); a bot that fills it again is held.
          setStatus({ kind: 'trapped' })
          return
        }
        if (Date.now() - mountedAt.current < MIN_FILL_MS) {
          setStatus({ kind: 'too_fast' })
          // The clock starts again: a human reads the notice and sends again; a bot is held back.
          mountedAt.current = Date.now()
          return
        }
        setStatus({ kind: 'sending', id })
        const message: OutboxMessage = {
          id,
          form,
          fields: { ...fields, message_id: id, lang },
          createdAt: Date.now(),
          attempts: 0,
          nextAttemptAt: Date.now(),
          state: 'pending',
        }
        let delivery: typeof import('./delivery')
        try {
          delivery = await import('./delivery')
        } catch {
          // The connection dropped before the sending code arrived: save the message in the
          // outbox, where a later flush (a timer, `online`, the next visit) sends it.
          try {
            const { putMessage } = await import('./outbox')
            await putMessage({ ...message, lastError: 'network' })
            setStatus({ kind: 'queued', id })
            void flush()
          } catch {
            // No outbox either: the text stays in the form and its draft; offer the fallbacks.
            setStatus({ kind: 'failed', id, error: 'misconfigured' })
          }
          return
        }
        try {
          const result = await delivery.submitMessage(message, options)
          if (result) onResult(result)
          if (result && !result.ok && result.error.retryable) void flush()
        } catch {
          // The device's storage failed (IndexedDB unavailable): the text stays in the form and
          // its draft; offer the fallbacks.
          setStatus({ kind: 'failed', id, error: 'misconfigured' })
        }
      } finally {
        busy.current = false
      }
    },
    [form, lang, options, onResult, flush],
  )

  /** Loads the sending code on the first interaction (focus or input in the form). */
  const preload = useCallback(() => {
    void import('./delivery').then((d) => d.preloadDelivery()).catch(() => undefined)
  }, [])

  return { status, ready, submit, saveDraft, preload }
}
