import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'

/** Serves a Web handler on 127.0.0.1, port 0; `close()` stops it. */
export async function serveFetch(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
