import type { Metadata } from 'next'
import { headers } from 'next/headers'
import { notFound } from 'next/navigation'
import PostalMime from 'postal-mime'
import { getConfig } from '@/lib/config'
import { getEmbeddedMailApi } from '@/lib/mail/embedded'
import { canReadOutbox } from '@/lib/mail/outbox-access'

// A developer tool of local mode, not site content: its few words are not in the CMS.

export const dynamic = 'force-dynamic'
export const metadata: Metadata = { title: 'Outbox', robots: { index: false, follow: false } }

function addresses(list: { name?: string; address?: string }[] | undefined): string {
  return (list ?? []).map((a) => (a.name ? `${a.name} <${a.address}>` : a.address)).join(', ')
}

/**
 * `/local/outbox`: the messages the embedded mail API received, newest first. Local mode only,
 * for loopback clients or with `OUTBOX_TOKEN`; otherwise it does not exist (404).
 */
export default async function OutboxPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>
}) {
  const config = getConfig()
  const h = await headers()
  const { token } = await searchParams
  const allowed = canReadOutbox({
    mode: config.mail.mode,
    token: config.mail.outboxToken,
    forwardedFor: h.get('x-forwarded-for'),
    authorization: h.get('authorization'),
    queryToken: typeof token === 'string' ? token : null,
  })
  if (!allowed) notFound()

  const entries = await getEmbeddedMailApi().outbox.list()
  const messages = await Promise.all(
    entries.map(async (entry) => ({ entry, email: await PostalMime.parse(entry.raw) })),
  )
  return (
    <main>
      <h1>Outbox</h1>
      <p>
        {messages.length} message{messages.length === 1 ? '' : 's'} in{' '}
        <code>{config.mail.outboxDir}</code>
      </p>
      {messages.map(({ entry, email }) => (
        <article
          key={entry.name}
          data-message-id={entry.id}
          style={{ borderTop: '1px solid', paddingBlock: '1rem' }}
        >
          <h2 style={{ fontSize: '1.1rem' }}>{email.subject}</h2>
          <dl>
            <dt>Received</dt>
            <dd>
              <time dateTime={entry.receivedAt.toISOString()}>
                {entry.receivedAt.toISOString()}
              </time>
            </dd>
            <dt>From</dt>
            <dd>{addresses(email.from ? [email.from] : [])}</dd>
            <dt>Reply to</dt>
            <dd>{addresses(email.replyTo)}</dd>
            <dt>To</dt>
            <dd>{addresses(email.to)}</dd>
            <dt>Message id</dt>
            <dd>
              <code>{entry.id}</code>
            </dd>
          </dl>
          <pre style={{ whiteSpace: 'pre-wrap' }}>{email.text}</pre>
        </article>
      ))}
    </main>
  )
}
