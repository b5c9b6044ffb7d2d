// `npm start`: builds the production site if needed, then serves it on PORT (default 3000).
import { spawn } from 'node:child_process'
import { buildIfNeeded } from './build-if-needed.mjs'

process.env.NEXT_TELEMETRY_DISABLED ??= '1'
const port = process.env.PORT || '3000'
process.env.SITE_URL ||= `http://localhost:${port}`

buildIfNeeded(process.env)

const args = ['node_modules/next/dist/bin/next', 'start', '-p', port]
if (process.env.LISTEN_HOST) args.push('-H', process.env.LISTEN_HOST)
const server = spawn(process.execPath, args, { stdio: 'inherit', env: process.env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
