import type { ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import {
  createContentApi,
  type ContentApi,
  type ContentApiOptions,
} from '@services/content-api/app'

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
export function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Content API: http://127.0.0.1:')) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`content-api exited with ${code}:\n${output}`)))
  })
}
