import { getConfig } from '@/lib/config'

/** The public part of the mail configuration, passed from the server to the forms as props. */
export type PublicMailOptions = {
  publicKey: string
  serviceId: string
  templates: { contact: string; newsletter: string }
  blockHeadless: boolean
  blockList: string[]
  throttleMs: number
  /**
   * Local mode: the path of the embedded mail API on the site's own origin (`/local/emailjs`);
   * the browser prefixes its origin. Hosted mode: absent (EmailJS's default origin).
   */
  localPath?: string
}

/** The public mail options from config (server only: it reads the environment). */
export function publicMailOptions(): PublicMailOptions {
  const { mail } = getConfig()
  return {
    publicKey: mail.publicKey,
    serviceId: mail.serviceId,
    templates: { ...mail.templates },
    blockHeadless: mail.blockHeadless,
    blockList: [...mail.blockList],
    throttleMs: mail.throttleMs,
    ...(mail.mode === 'local' ? { localPath: '/local/emailjs' } : {}),
  }
}
