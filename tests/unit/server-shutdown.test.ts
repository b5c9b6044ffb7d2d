import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// A server using the production server's shutdown (server/shutdown.mjs), in a process of its own
// so that it can receive a real SIGTERM. Its one route answers slowly: the answer is held until
// the test has sent the signal.
const SERVER = `
import { createServer } from 'node:http'
import { drainOnSignals } from ${JSON.stringify(path.resolve('server/shutdown.mjs'))}
let release
const server = createServer((req, res) => {
  process.stdout.write('in-flight\\n')
  // Never released when the test wants the bound to cut it.
  release = () => setTimeout(() => res.end('slow answer, complete'), 200)
  process.once('SIGTERM', () => setTimeout(() => release(), 50))
  if (req.url === '/never') release = () => {}
})
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'))
drainOnSignals(server, { timeoutMs: Number(process.env.DRAIN_MS), log: { log() {}, warn() {} } })
`

function startServer(
  drainMs: number,
): Promise<{ child: ChildProcess; port: number; lines: string[] }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    env: { ...process.env, DRAIN_MS: String(drainMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line)
        const port = /^port (\d+)$/.exec(line)
        if (port) resolve({ child, port: Number(port[1]), lines })
      }
    })
  })
}

function get(port: number, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A new connection each time: the point is what a new visitor gets.
    request({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('graceful shutdown', () => {
  it('on SIGTERM, finishes a slow request in flight, refuses new connections, then exits 0', async () => {
    const { child, port, lines } = await startServer(10_000)
    try {
      const slow = get(port, '/slow')
      await until(() => lines.includes('in-flight'))
      child.kill('SIGTERM')
      const answer = await slow
      expect(answer).toEqual({ status: 200, body: 'slow answer, complete' })
      await expect(get(port, '/after')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
      expect(await exited(child)).toBe(0)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('cuts a request still in flight once the bound has passed, and exits', async () => {
    const { child, port, lines } = await startServer(300)
    try {
      const stuck = get(port, '/never')
      await until(() => lines.includes('in-flight'))
      child.kill('SIGTERM')
      await expect(stuck).rejects.toMatchObject({ code: 'ECONNRESET' })
      expect(await exited(child)).toBe(0)
    } finally {
      child.kill('SIGKILL')
    }
  })
})
