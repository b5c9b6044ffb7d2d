import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createContentApi, type ContentApi } from '@services/content-api/app'
import { initWritableRepository, type WriteApiOptions } from '@services/content-api/write'

/** A writable repository (content API and write stand-ins) on a real socket, on a free port. */
export type WritableRepository = {
  dir: string
  origin: string
  /** The Content API URL, from which the push finds the write APIs. */
  endpoint: string
  api: ContentApi
  close: () => Promise<void>
}

export type WritableOptions = WriteApiOptions & {
  languages?: string[]
  rateLimit?: number
  retryAfter?: number
  /** Answers instead of the repository when it returns a response (fault injection). */
  fault?: (request: Request) => Response | undefined
}

/** Serves a new, empty writable repository in a temporary folder (removed by `close()`). */
export async function serveWritableRepository(
  options: WritableOptions = {},
): Promise<WritableRepository> {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-writable-'))
  initWritableRepository(dir, options.languages ?? ['en-us', 'fr-fr'])
  const api = createContentApi({
    contentDir: dir,
    modelsDir: dir,
    rateLimit: options.rateLimit,
    retryAfter: options.retryAfter,
    write: { writeToken: options.writeToken, publishMigrations: options.publishMigrations },
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: (request) => options.fault?.(request) ?? api.fetch(request),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    )
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    dir,
    origin,
    endpoint: `${origin}/api/v2`,
    api,
    close: () =>
      new Promise<void>((resolve) => {
        api.close()
        server.close(() => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}
