import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EMAILJS_TEXTS } from '@services/mail-api/errors'
import { freePort, started } from './helpers'

/**
 * `npm run mail-api -- --port N --allow-origin ORIGIN`: the standalone mail API answers a page on
 * the allowed origin as a browser needs (preflight, CORS on the answer) and refuses a server-side
 * call until `--allow-non-browser`; a malformed `--allow-origin` stops it with a message.
 */

const SITE = 'http://site.example:8080'

const request = {
  lib_version: '4.4.1',
  user_id: 'facet-local-public-key',
  service_id: 'default_service',
  template_id: 'newsletter',
  template_params: {
    email: 'reader@example.com',
    message_id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    lang: 'en-us',
  },
}

function spawnCli(args: string[]) {
  // npm starts a shell that starts tsx: a process group of its own, stopped as a whole.
  return spawn('npm', ['run', 'mail-api', '--', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

describe('standalone mail API', () => {
  it('answers an allowed origin as a browser needs, and refuses non-browser calls', async () => {
    const outbox = mkdtempSync(path.join(tmpdir(), 'facet-mail-cli-'))
    const port = await freePort()
    // Two requests follow each other at once here: the 1-per-second limit (its own tests) is off.
    const child = spawnCli([
      ...['--port', String(port), '--outbox', outbox],
      ...['--allow-origin', SITE, '--rate-limit', '0'],
    ])
    try {
      await started(child, 'Mail API: http://127.0.0.1:')
      const send = `http://127.0.0.1:${port}/api/v1.0/email/send`
      const preflight = await fetch(send, {
        method: 'OPTIONS',
        headers: {
          Origin: SITE,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE)

      const body = JSON.stringify(request)
      const json = { 'Content-Type': 'application/json' }
      const fromServer = await fetch(send, { method: 'POST', headers: json, body })
      expect([fromServer.status, await fromServer.text()]).toEqual([
        403,
        EMAILJS_TEXTS.nonBrowserDisabled,
      ])
      const fromPage = await fetch(send, {
        method: 'POST',
        headers: { ...json, Origin: SITE },
        body,
      })
      expect([fromPage.status, await fromPage.text()]).toEqual([200, 'OK'])
      expect(fromPage.headers.get('access-control-allow-origin')).toBe(SITE)
      expect(readdirSync(outbox)).toEqual([`${request.template_params.message_id}.eml`])
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
      rmSync(outbox, { recursive: true, force: true })
    }
  }, 60_000)

  it('stops with a message naming --allow-origin when it is not an origin', async () => {
    const child = spawnCli(['--port', '0', '--allow-origin', 'site.example/path'])
    let output = ''
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).not.toBe(0)
    expect(output).toContain(
      '--allow-origin: expected an origin such as http://localhost:3000, got "site.example/path"',
    )
  }, 60_000)
})
