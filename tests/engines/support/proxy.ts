import { createHash } from 'node:crypto'
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback proxy in front of the site, for what a browser's own automation cannot do:
 *
 * - `inject`: a script that must run before any of the page's own (the recorder, where classic
 *   WebDriver has no preload script). It goes first in each page's `<head>`, and its hash joins
 *   the page's `script-src`, so the page's policy is otherwise the site's, word for word. Only
 *   documents (requests that accept `text/html`) are touched; they are asked for uncompressed.
 * - `bytes` and `statuses`: what went over the wire for each path, as the site sent it (its encoding kept), for
 *   every request a browser makes, a worker's included.
 * - `replacements`: files served in place of the site's, by path (any query), never cached by
 *   the browser: a model of the test corpus in place of a sample model, say.
 */
export type SiteProxy = {
  origin: string
  /** Bytes of each response body as sent, by path, since the last `reset`. */
  bytes: Map<string, number>
  /** The status of the last answer to each URL (path and query) since the last `reset`. */
  statuses: Map<string, number>
  /** Bodies served in place of the site's answer, by path (`no-store`, so asked for each time). */
  replacements: Map<string, { body: Uint8Array; type: string }>
  /** The requests (method and URL) asked for and not yet answered in full, for failure messages. */
  inFlight: Set<string>
  reset(): void
  close(): Promise<void>
}

function withHash(policy: string, hash: string): string {
  return policy
    .split(';')
    .map((directive) =>
      directive.trim().startsWith('script-src ') ? `${directive.trim()} ${hash}` : directive.trim(),
    )
    .join('; ')
}

export async function startProxy(target: string, options: { inject?: string } = {}) {
  const upstream = new URL(target)
  const script = options.inject
  const hash = script && `'sha256-${createHash('sha256').update(script).digest('base64')}'`
  const bytes = new Map<string, number>()
  const statuses = new Map<string, number>()
  const replacements = new Map<string, { body: Uint8Array; type: string }>()
  const inFlight = new Set<string>()

  const server: Server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`
    inFlight.add(key)
    res.once('close', () => inFlight.delete(key))
    const replaced = replacements.get(String(req.url).split('?')[0]!)
    if (replaced) {
      statuses.set(String(req.url), 200)
      const path = String(req.url).split('?')[0]!
      bytes.set(path, (bytes.get(path) ?? 0) + replaced.body.byteLength)
      res.writeHead(200, {
        'content-type': replaced.type,
        'content-length': String(replaced.body.byteLength),
        'cache-control': 'no-store',
      })
      res.end(replaced.body)
      req.resume()
      return
    }
    const document = script !== undefined && /text\/html/.test(String(req.headers.accept))
    // The Host header is kept: the site answers under any host, and its mail API takes the
    // origin the browser sees (the proxy's) as its own.
    const headers: IncomingHttpHeaders = { ...req.headers }
    if (document) headers['accept-encoding'] = 'identity'
    const path = String(req.url).split('?')[0]!
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        statuses.set(String(req.url), answer.statusCode!)
        const type = String(answer.headers['content-type'] ?? '')
        const policy = answer.headers['content-security-policy']
        if (!document || !type.startsWith('text/html')) {
          res.writeHead(answer.statusCode!, answer.headers)
          answer.on('data', (chunk: Buffer) =>
            bytes.set(path, (bytes.get(path) ?? 0) + chunk.length),
          )
          answer.pipe(res)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8')
          const body = Buffer.from(
            html.replace(/<head([^>]*)>/i, `<head$1><script>${script}</script>`),
          )
          const out: Record<string, string | string[] | undefined> = {
            ...answer.headers,
            'content-length': String(body.length),
          }
          delete out['transfer-encoding']
          if (typeof policy === 'string') out['content-security-policy'] = withHash(policy, hash!)
          bytes.set(path, (bytes.get(path) ?? 0) + body.length)
          res.writeHead(answer.statusCode!, out)
          res.end(body)
        })
      },
    )
    forward.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`proxy: ${error.message}`)
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    bytes,
    statuses,
    replacements,
    inFlight,
    reset: () => {
      bytes.clear()
      statuses.clear()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  } satisfies SiteProxy
}
