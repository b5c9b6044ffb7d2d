import type { Content } from '@prismicio/client'
import { createClient } from '@/prismicio'
import type { FormMessages } from '@/forms/messages'
import type { MESSAGE_FIELDS } from '@rules/forms'
import { publicMailOptions, type PublicMailOptions } from './options'

type MessageFields = Pick<Content.ContactFormSlice['primary'], (typeof MESSAGE_FIELDS)[number]>

/** A form slice's words, as the form component takes them. */
export function formMessages(p: MessageFields): FormMessages {
  return {
    submit: p.submit_label ?? '',
    sending: p.sending_message ?? '',
    success: p.success_message ?? '',
    messageIdLabel: p.message_id_label ?? '',
    queued: p.queued_message ?? '',
    errors: {
      required: p.error_required ?? '',
      too_long: p.error_too_long ?? '',
      email: p.error_email ?? '',
      characters: p.error_characters ?? '',
    },
    failures: {
      invalid: p.error_invalid ?? '',
      blocked: p.error_blocked ?? '',
      headless: p.error_headless ?? '',
      misconfigured: p.error_unavailable ?? '',
    },
    tooFast: p.too_fast_message ?? '',
    trapped: p.trap_message ?? '',
    honeypotLabel: p.honeypot_label ?? '',
    copy: p.copy_label ?? '',
    copied: p.copied_label ?? '',
    mailto: p.mailto_label ?? '',
  }
}

/** The page's language from the SliceZone context `{ lang }`, when the page passes it. */
function contextLang(context: unknown): string | undefined {
  if (context && typeof context === 'object' && 'lang' in context) {
    const { lang } = context as { lang: unknown }
    if (typeof lang === 'string') return lang
  }
  return undefined
}

/**
 * What a form slice needs from the server: the language, the mailto address (`settings`'
 * `contact_email`) and the public mail options from config.
 */
export async function formContext(
  context: unknown,
): Promise<{ lang: string; contactEmail: string; options: PublicMailOptions }> {
  const lang = contextLang(context)
  const settings = await createClient().getSingle('settings', lang ? { lang } : {})
  return {
    lang: lang ?? settings.lang,
    contactEmail: settings.data.contact_email ?? '',
    options: publicMailOptions(),
  }
}
