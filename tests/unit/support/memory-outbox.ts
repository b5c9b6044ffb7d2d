import type { OutboxMessage } from '@/forms/outbox'
import type { PublicMailOptions } from '@/lib/mail/options'

/**
 * An in-memory stand-in for the forms' IndexedDB outbox (`@/forms/outbox`), for tests that
 * exercise delivery without a browser database. Mock the module with it:
 * `vi.mock('@/forms/outbox', () => import('./support/memory-outbox'))`, and read or clear
 * `outboxStore` from the test.
 */
export const outboxStore = new Map<string, OutboxMessage>()

export const putMessage = async (m: OutboxMessage) => void outboxStore.set(m.id, m)
export const deleteMessage = async (id: string) => void outboxStore.delete(id)
export const getMessage = async (id: string) => outboxStore.get(id)
export const listMessages = async () =>
  [...outboxStore.values()].sort((a, b) => a.createdAt - b.createdAt)

/** EmailJS options as the site passes them in local mode, with the SDK's throttle off. */
export const testMailOptions: PublicMailOptions = {
  publicKey: 'pk',
  serviceId: 'svc',
  templates: { contact: 'contact', newsletter: 'newsletter' },
  blockHeadless: false,
  blockList: [],
  throttleMs: 0,
  localPath: '/local/emailjs',
}
