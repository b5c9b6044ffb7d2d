import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import type { HttpBindings, Http2Bindings } from '@hono/node-server'
import { createMailApi } from './app'

/**
 * `npm run mail-api -- --port N`: the embedded mail API standalone on 127.0.0.1:N, serving
 * `/api/v1.0/email/send` and `/send-form` with the local ids (or those given). Its account
 * settings start as a new EmailJS account's: browsers only, from the origins given with
 * `--allow-origin`, 1 request per second per client, no private key, no deduplication.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4020' },
    templates: { type: 'string', default: 'content/email-templates' },
    outbox: { type: 'string', default: process.env.OUTBOX_DIR || '.data/outbox' },
    'public-key': { type: 'string', default: 'facet-local-public-key' },
    'service-id': { type: 'string', default: 'facet-local' },
    'allow-origin': { type: 'string', multiple: true, default: [] },
    'allow-non-browser': { type: 'boolean', default: false },
    // Taken from the environment by default: a secret on a command line shows in `ps`.
    'private-key': { type: 'string', default: process.env.MAIL_API_PRIVATE_KEY },
    'rate-limit': { type: 'string', default: '1' },
    dedupe: { type: 'boolean', default: false },
    smtp: { type: 'string', default: process.env.SMTP_URL },
  },
})

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port: expected a port number from 0 to 65535, got "${values.port}"`)

const rateLimit = Number(values['rate-limit'])
if (!/^\d+(\.\d+)?$/.test(values['rate-limit']) || !Number.isFinite(rateLimit))
  fail(`--rate-limit: expected requests per second (0 turns it off), got "${values['rate-limit']}"`)

for (const origin of values['allow-origin']) {
  let parsed: URL | undefined
  try {
    parsed = new URL(origin)
  } catch {
    parsed = undefined
  }
  if (parsed?.origin !== origin)
    fail(`--allow-origin: expected an origin such as http://localhost:3000, got "${origin}"`)
}

const api = createMailApi({
  publicKey: values['public-key'],
  serviceId: values['service-id'],
  templatesDir: values.templates,
  outboxDir: values.outbox,
  smtpUrl: values.smtp || undefined,
  allowedOrigins: values['allow-origin'],
  allowNonBrowser: values['allow-non-browser'],
  privateKey: values['private-key'] || undefined,
  rateLimit: rateLimit > 0 ? rateLimit : false,
  dedupe: values.dedupe,
})
const server = serve(
  {
    port,
    hostname: '127.0.0.1',
    // The socket's address, not a header a client could forge, keys the rate limit.
    fetch: (request, env: HttpBindings | Http2Bindings) =>
      api.fetch(request, { address: env.incoming.socket.remoteAddress }),
  },
  (info) => {
    console.log(
      `Mail API: http://127.0.0.1:${info.port}/api/v1.0/email/send (outbox: ${values.outbox})`,
    )
  },
)
const stop = () => {
  api.close()
  server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
