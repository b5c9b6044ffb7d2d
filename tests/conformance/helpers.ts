import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server'
import {
  createContentApi,
  type ContentApi,
  type ContentApiOptions,
} from '@services/content-api/app'
import { createMailApi, type MailApiOptions } from '@services/mail-api/app'

/** The content API served on a real socket at 127.0.0.1, on a free port. */
export type Served = {
  api: ContentApi
  origin: string
  endpoint: string
  close: () => Promise<void>
}

/** Serves `createContentApi(options)` on port 0; `close()` stops the server and the watcher. */
export async function serveContentApi(options: ContentApiOptions): Promise<Served> {
  const api = createContentApi(options)
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    api,
    origin,
    endpoint: `${origin}${options.basePath ?? ''}/api/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        api.close()
        server.close(() => resolve())
      }),
  }
}

/** The mail API served on a real socket at 127.0.0.1, with its own empty outbox. */
export type ServedMail = {
  origin: string
  port: number
  /** The `.eml` files in the outbox. */
  messages: () => string[]
  close: () => Promise<void>
}

/**
 * Serves `createMailApi` on port 0 with the sample templates, public key `pk` and service `svc`
 * (unless `options` say otherwise); the socket's address keys the rate limit, as standalone.
 */
export async function serveMailApi(options: Partial<MailApiOptions> = {}): Promise<ServedMail> {
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'facet-mail-conformance-'))
  const api = createMailApi({
    publicKey: 'pk',
    serviceId: 'svc',
    templatesDir: path.resolve('content/email-templates'),
    outboxDir,
    ...options,
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: (request, env: HttpBindings | Http2Bindings) =>
          api.fetch(request, { address: env.incoming.socket.remoteAddress }),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    messages: () => readdirSync(outboxDir).filter((name) => name.endsWith('.eml')),
    close: () =>
      new Promise<void>((resolve) => {
        api.close()
        server.close(() => {
          rmSync(outboxDir, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}

/** A free port on 127.0.0.1 (for a process that must be told its port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Resolves once the CLI prints its address; rejects with its output when it exits first. */
export function started(
  child: ChildProcess,
  banner = 'Content API: http://127.0.0.1:',
): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(banner)) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`the CLI exited with ${code}:\n${output}`)))
  })
}
