import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import type { HttpBindings, Http2Bindings } from '@hono/node-server'
import { createMailApi } from './app'

/**
 * `npm run mail-api -- --port N`: the embedded mail API standalone on 127.0.0.1:N, serving
 * `/api/v1.0/email/send` and `/send-form` with the local ids (or those given).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4020' },
    templates: { type: 'string', default: 'content/email-templates' },
    outbox: { type: 'string', default: process.env.OUTBOX_DIR || '.data/outbox' },
    'public-key': { type: 'string', default: 'facet-local-public-key' },
    'service-id': { type: 'string', default: 'facet-local' },
    'allow-origin': { type: 'string', multiple: true, default: [] },
    smtp: { type: 'string', default: process.env.SMTP_URL },
  },
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: expected a port number from 0 to 65535, got "${values.port}"`)
  process.exit(2)
}

const api = createMailApi({
  publicKey: values['public-key'],
  serviceId: values['service-id'],
  templatesDir: values.templates,
  outboxDir: values.outbox,
  smtpUrl: values.smtp || undefined,
  allowedOrigins: values['allow-origin'],
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
