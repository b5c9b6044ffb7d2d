import type { AddressInfo } from 'node:net'
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
