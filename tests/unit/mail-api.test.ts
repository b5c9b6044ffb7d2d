import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, test } from 'vitest'
import { createMailApi, type MailApiOptions } from '@services/mail-api/app'
import { EMAILJS_TEXTS } from '@services/mail-api/errors'
import { parseTemplate } from '@services/mail-api/templates'

const TEMPLATES = path.resolve('content/email-templates')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-mail-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The mail API on 127.0.0.1:0, over a real socket. */
async function start(options: Partial<MailApiOptions> = {}) {
  const outboxDir = options.outboxDir ?? tempDir()
  const api = createMailApi({
    publicKey: 'pk',
    serviceId: 'svc',
    templatesDir: TEMPLATES,
    outboxDir,
    rateLimit: false,
    ...options,
  })
  const server = serve({ fetch: (r) => api.fetch(r), port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const { port } = server.address() as AddressInfo
  cleanups.push(
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    () => api.close(),
  )
  return { url: `http://127.0.0.1:${port}`, outboxDir }
}

const contactParams = {
  name: 'Zoë Ñandú',
  email: 'zoe@example.com',
  subject: 'A lamp <b>& a chair</b>',
  message: 'Hello,\r\nline two\n\t<script>alert(1)</script>\n😀',
  message_id: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  lang: 'en-us',
}

function sendJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/api/v1.0/email/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

const valid = {
  lib_version: '4.4.1',
  user_id: 'pk',
  service_id: 'svc',
  template_id: 'contact',
  template_params: contactParams,
}

function emlFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.eml'))
}

describe('POST /api/v1.0/email/send', () => {
  test('answers 200 OK and writes one .eml with every field intact', async () => {
    const { url, outboxDir } = await start()
    const response = await sendJson(url, valid)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('OK')
    expect(emlFiles(outboxDir)).toEqual([`${contactParams.message_id}.eml`])
    const raw = readFileSync(path.join(outboxDir, emlFiles(outboxDir)[0]))
    expect(raw.toString('latin1')).toMatch(/\r\n\r\n/)
    const email = await PostalMime.parse(raw)
    expect(email.subject).toBe(`[Contact] ${contactParams.subject}`)
    expect(email.replyTo?.[0]).toMatchObject({
      name: contactParams.name,
      address: contactParams.email,
    })
    expect(email.text).toContain(`Name: ${contactParams.name}`)
    expect(email.text).toContain(contactParams.message.replace(/\r\n/g, '\n'))
    // {{var}} is escaped in HTML: the visitor's markup is text, never markup.
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(email.html).not.toContain('<script>')
    expect(email.messageId).toBe(`<${contactParams.message_id}@facet.local>`)
  })

  test('stores a repeated message id once', async () => {
    const { url, outboxDir } = await start()
    const answers = await Promise.all([sendJson(url, valid), sendJson(url, valid)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect((await sendJson(url, valid)).status).toBe(200)
    expect(emlFiles(outboxDir)).toHaveLength(1)
    expect(readdirSync(outboxDir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  test.each([
    ['user_id', { ...valid, user_id: undefined }, EMAILJS_TEXTS.userIdRequired],
    ['service_id', { ...valid, service_id: '' }, EMAILJS_TEXTS.serviceIdRequired],
    ['template_id', { ...valid, template_id: undefined }, EMAILJS_TEXTS.templateIdRequired],
    ['an unknown user_id', { ...valid, user_id: 'nope' }, EMAILJS_TEXTS.publicKeyInvalid],
    ['an unknown service_id', { ...valid, service_id: 'nope' }, EMAILJS_TEXTS.serviceIdInvalid],
    ['an unknown template_id', { ...valid, template_id: 'nope' }, EMAILJS_TEXTS.templateIdNotFound],
    [
      'a template_id that is a path',
      { ...valid, template_id: '../contact' },
      EMAILJS_TEXTS.templateIdNotFound,
    ],
  ])('returns 400 with EmailJS’s text for %s', async (_label, body, text) => {
    const { url, outboxDir } = await start()
    const response = await sendJson(url, body)
    expect(response.status).toBe(400)
    expect(await response.text()).toBe(text)
    expect(emlFiles(outboxDir)).toEqual([])
  })

  test('returns 413 when the template variables exceed 50 KB', async () => {
    const { url, outboxDir } = await start()
    const big = { ...valid, template_params: { ...contactParams, message: 'x'.repeat(51 * 1024) } }
    const response = await sendJson(url, big)
    expect(response.status).toBe(413)
    expect(await response.text()).toBe(EMAILJS_TEXTS.variablesTooLarge)
    expect(emlFiles(outboxDir)).toEqual([])
  })

  test('refuses a line break in a header field with 400 and writes nothing', async () => {
    const { url, outboxDir } = await start()
    for (const [field, value] of [
      ['subject', 'Hi\r\nBcc: victim@example.com'],
      ['name', 'Eve\nBcc: victim@example.com'],
      ['email', 'eve@example.com\r\nBcc: victim@example.com'],
    ]) {
      const response = await sendJson(url, {
        ...valid,
        template_params: { ...contactParams, [field]: value },
      })
      expect(response.status).toBe(400)
      expect(await response.text()).toContain(`"${field}"`)
    }
    expect(emlFiles(outboxDir)).toEqual([])
  })

  test('refuses a browser request from another origin with 403, allows its own', async () => {
    const { url } = await start({ allowedOrigins: ['https://facet.example'] })
    const other = await sendJson(url, valid, { Origin: 'https://evil.example' })
    expect(other.status).toBe(403)
    expect((await sendJson(url, valid, { Origin: url })).status).toBe(200)
    expect((await sendJson(url, valid, { Origin: 'https://facet.example' })).status).toBe(200)
  })

  test('allows the public origin a proxy forwards, refuses any other', async () => {
    const { url } = await start()
    const proxied = { 'X-Forwarded-Host': 'www.studio.example', 'X-Forwarded-Proto': 'https' }
    const ok = await sendJson(url, valid, { ...proxied, Origin: 'https://www.studio.example' })
    expect(ok.status).toBe(200)
    const other = await sendJson(url, valid, { ...proxied, Origin: 'https://evil.example' })
    expect(other.status).toBe(403)
  })

  test('answers 429 Too Many Requests once a client has used its burst', async () => {
    const { url } = await start({ rateLimit: { burst: 2, perSecond: 0.001 } })
    const ids = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`)
    const statuses = []
    for (const id of ids) {
      const body = { ...valid, template_params: { ...contactParams, message_id: id } }
      statuses.push((await sendJson(url, body, { 'X-Forwarded-For': '203.0.113.9' })).status)
    }
    expect(statuses).toEqual([200, 200, 429])
    // Another client still has its own burst.
    expect((await sendJson(url, valid, { 'X-Forwarded-For': '203.0.113.10' })).status).toBe(200)
  })
})

describe('POST /api/v1.0/email/send-form', () => {
  test('takes multipart form data as sendForm sends it', async () => {
    const { url, outboxDir } = await start()
    const form = new FormData()
    form.append('email', 'reader@example.com')
    form.append('message_id', '11111111-2222-4333-8444-555555555555')
    form.append('lang', 'fr-fr')
    form.append('lib_version', '4.4.1')
    form.append('service_id', 'svc')
    form.append('template_id', 'newsletter')
    form.append('user_id', 'pk')
    const response = await fetch(`${url}/api/v1.0/email/send-form`, { method: 'POST', body: form })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('OK')
    const [file] = emlFiles(outboxDir)
    const email = await PostalMime.parse(readFileSync(path.join(outboxDir, file)))
    expect(email.text).toContain('E-mail: reader@example.com')
    expect(email.text).toContain('Language: fr-fr')
    expect(email.text).not.toContain('user_id')
  })

  test('returns 400 user_id required for an empty form', async () => {
    const { url } = await start()
    const response = await fetch(`${url}/api/v1.0/email/send-form`, {
      method: 'POST',
      body: new FormData(),
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toBe(EMAILJS_TEXTS.userIdRequired)
  })
})

describe('templates', () => {
  test('every template in content/email-templates loads', () => {
    for (const name of readdirSync(TEMPLATES)) {
      const file = path.join(TEMPLATES, name)
      expect(() => parseTemplate(file, readFileSync(file, 'utf8'))).not.toThrow()
    }
  })

  test('refuses {{{var}}} with a message naming the file and field', () => {
    expect(() =>
      parseTemplate(
        'x.json',
        JSON.stringify({ to: 'a@b.c', from: 'a@b.c', subject: 's', text: '{{{message}}}' }),
      ),
    ).toThrow(/x\.json: "text" uses \{\{\{…\}\}\}/)
  })

  test('a request for a template with {{{var}}} gets 400 and nothing is written', async () => {
    const dir = tempDir()
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path.join(dir, 'raw.json'),
      JSON.stringify({ to: 'a@b.c', from: 'a@b.c', subject: 's', text: '{{{message}}}' }),
    )
    const { url, outboxDir } = await start({ templatesDir: dir })
    const response = await sendJson(url, { ...valid, template_id: 'raw' })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/unescaped variables are not allowed/)
    expect(emlFiles(outboxDir)).toEqual([])
  })
})

describe('SMTP relay', () => {
  async function smtp(fail = false) {
    const received: { from: string; to: string[]; raw: Buffer }[] = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          if (fail) return callback(new Error('mailbox unavailable'))
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    const { port } = server.server.address() as AddressInfo
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    return { url: `smtp://127.0.0.1:${port}`, received }
  }

  test('relays each accepted message once over SMTP', async () => {
    const relay = await smtp()
    const { url, outboxDir } = await start({ smtpUrl: relay.url })
    expect((await sendJson(url, valid)).status).toBe(200)
    expect((await sendJson(url, valid)).status).toBe(200)
    expect(relay.received).toHaveLength(1)
    expect(relay.received[0].to).toEqual(['hello@facet.studio'])
    const email = await PostalMime.parse(relay.received[0].raw)
    expect(email.text).toContain(contactParams.message.replace(/\r\n/g, '\n'))
    expect(emlFiles(outboxDir)).toHaveLength(1)
  })

  test('a failed relay answers 502 and keeps nothing, so the retry is relayed, not deduped', async () => {
    const relay = await smtp(true)
    const { url, outboxDir } = await start({ smtpUrl: relay.url })
    expect((await sendJson(url, valid)).status).toBe(502)
    expect(emlFiles(outboxDir)).toEqual([])
    // The retry of the same id is attempted again (502 again), not answered as a stored duplicate.
    expect((await sendJson(url, valid)).status).toBe(502)
  })
})
