// `npm start`: builds the production site if needed, then serves it on PORT (default 3000)
// through scripts/server.mjs.
import { buildIfNeeded } from './build-if-needed.mjs'

process.env.NEXT_TELEMETRY_DISABLED ??= '1'
process.env.PORT ||= '3000'
process.env.SITE_URL ||= `http://localhost:${process.env.PORT}`

buildIfNeeded(process.env)
await import('./server.mjs')
