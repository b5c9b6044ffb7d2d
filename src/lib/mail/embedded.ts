import { existsSync } from 'node:fs'
import path from 'node:path'
import { createMailApi, type MailApi } from '@services/mail-api/app'
import { getConfig } from '@/lib/config'

/** Where the site mounts the embedded mail API; the SDK's origin in local mode is site + this. */
export const EMBEDDED_MAIL_BASE_PATH = '/local/emailjs'

let api: MailApi | undefined

/** The e-mail templates folder: `<CONTENT_DIR>/email-templates`, else the sample's. */
export function templatesDir(): string {
  const config = getConfig()
  const own =
    config.content.mode === 'local'
      ? path.resolve(config.content.contentDir, 'email-templates')
      : undefined
  return own && existsSync(own) ? own : path.resolve('content', 'email-templates')
}

/** The embedded mail API (local mode only), created once per process. */
export function getEmbeddedMailApi(): MailApi {
  if (!api) {
    const config = getConfig()
    if (config.mail.mode !== 'local')
      throw new Error('The embedded mail API exists only in local mode (EmailJS ids are set).')
    api = createMailApi({
      publicKey: config.mail.publicKey,
      serviceId: config.mail.serviceId,
      templatesDir: templatesDir(),
      outboxDir: path.resolve(config.mail.outboxDir),
      smtpUrl: config.mail.smtpUrl,
      basePath: EMBEDDED_MAIL_BASE_PATH,
      // The site's own origin (SITE_URL); the origin each request reached is allowed too.
      allowedOrigins: [new URL(config.siteUrl).origin],
      allowNonBrowser: config.mail.api.allowNonBrowser,
      rateLimit: config.mail.api.rateLimit > 0 ? config.mail.api.rateLimit : false,
      dedupe: config.mail.api.dedupe,
    })
  }
  return api
}
