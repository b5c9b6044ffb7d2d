import { getConfig } from '@/lib/config'
import { getEmbeddedMailApi } from '@/lib/mail/embedded'

/** The embedded mail API, mounted at /local/emailjs (local mode only; 404 in hosted mode). */
async function handle(request: Request): Promise<Response> {
  if (getConfig().mail.mode !== 'local') return new Response('Not Found', { status: 404 })
  return getEmbeddedMailApi().fetch(request)
}

export const POST = handle
export const GET = handle
export const OPTIONS = handle

export const dynamic = 'force-dynamic'
