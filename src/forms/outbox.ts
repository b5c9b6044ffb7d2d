import type { IDBPDatabase } from 'idb'
import { cachedUntilRejected } from '@/lib/cached-until-rejected'
import type { MailErrorKind } from '@/lib/mail/errors'
import type { FormKind } from './schemas'

/**
 * The visitor's outbox, in IndexedDB: every message is put here before it is sent and removed
 * only after a 2xx, so a closed tab, a crash or a dead network never loses it. `idb` is imported
 * on first use.
 */

/** A message waiting in the outbox. */
export type OutboxMessage = {
  /** The message id (also the template parameter `message_id`). */
  id: string
  form: FormKind
  /** The fields exactly as sent (template parameters, or the form's fields). */
  fields: Record<string, string>
  createdAt: number
  attempts: number
  /** When the next automatic attempt is due (ms since the epoch). */
  nextAttemptAt: number
  /** `pending`: retried automatically; `held`: refused, waits for the visitor. */
  state: 'pending' | 'held'
  lastError?: MailErrorKind
}

const DB_NAME = 'facet-mail'
const STORE = 'outbox'

const open = cachedUntilRejected<IDBPDatabase>(() =>
  import('idb').then(({ openDB }) =>
    openDB(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore(STORE, { keyPath: 'id' })
      },
    }),
  ),
)

/** Saves (or replaces) a message. */
export async function putMessage(message: OutboxMessage): Promise<void> {
  await (await open()).put(STORE, message)
}

/** Removes a message: only after the service answered 2xx. */
export async function deleteMessage(id: string): Promise<void> {
  await (await open()).delete(STORE, id)
}

/** One message, if it is still waiting. */
export async function getMessage(id: string): Promise<OutboxMessage | undefined> {
  return (await open()).get(STORE, id)
}

/** Every waiting message, oldest first. */
export async function listMessages(): Promise<OutboxMessage[]> {
  const all: OutboxMessage[] = await (await open()).getAll(STORE)
  return all.sort((a, b) => a.createdAt - b.createdAt)
}
