import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import fc from 'fast-check'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { createMailApi, type MailApiOptions } from '@services/mail-api/app'
import { EMAILJS_TEXTS, EmailJsError } from '@services/mail-api/errors'
import { composeMessage } from '@services/mail-api/outbox'
import { RateLimiter } from '@services/mail-api/rate-limit'
import { parseTemplate, renderTemplate } from '@services/mail-api/templates'

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

/** POSTs `body` as JSON, with no `Origin`: what a server-side client sends. */
function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/api/v1.0/email/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

/** POSTs `body` as `emailjs.send` does from a page on the API's own origin. */
function sendJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return postJson(url, body, { Origin: url, ...headers })
}

/** POSTs a form as `emailjs.sendForm` does from a page on the API's own origin. */
function sendForm(url: string, form: FormData, headers: Record<string, string> = {}) {
  return fetch(`${url}/api/v1.0/email/send-form`, {
    method: 'POST',
    headers: { Origin: url, ...headers },
    body: form,
  })
}

const valid = {
  lib_version: '4.4.1',
  user_id: 'pk',
  service_id: 'svc',
  template_id: 'contact',
  template_params: contactParams,
}

/** The form `sendForm` sends for the newsletter: its fields, then the SDK's own. */
function newsletterForm(): FormData {
  const form = new FormData()
  form.append('email', 'reader@example.com')
  form.append('message_id', '11111111-2222-4333-8444-555555555555')
  form.append('lang', 'fr-fr')
  form.append('lib_version', '4.4.1')
  form.append('service_id', 'svc')
  form.append('template_id', 'newsletter')
  form.append('user_id', 'pk')
  return form
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

  test('stores every copy of a repeated message id, as EmailJS sends every request', async () => {
    const { url, outboxDir } = await start()
    const answers = await Promise.all([sendJson(url, valid), sendJson(url, valid)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect((await sendJson(url, valid)).status).toBe(200)
    const id = contactParams.message_id
    expect(emlFiles(outboxDir).sort()).toEqual([`${id}.2.eml`, `${id}.3.eml`, `${id}.eml`])
    expect(readdirSync(outboxDir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  test('with the dedupe option (Facet’s own), stores a repeated message id once', async () => {
    const { url, outboxDir } = await start({ dedupe: true })
    const answers = await Promise.all([sendJson(url, valid), sendJson(url, valid)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect((await sendJson(url, valid)).status).toBe(200)
    expect(emlFiles(outboxDir)).toEqual([`${contactParams.message_id}.eml`])
  })

  test('takes default_service as the account’s service', async () => {
    const { url, outboxDir } = await start()
    const response = await sendJson(url, { ...valid, service_id: 'default_service' })
    expect(response.status).toBe(200)
    expect(emlFiles(outboxDir)).toHaveLength(1)
  })

  test.each([
    ['user_id', { ...valid, user_id: undefined }, EMAILJS_TEXTS.userIdRequired],
    ['service_id', { ...valid, service_id: '' }, EMAILJS_TEXTS.serviceIdRequired],
    ['template_id', { ...valid, template_id: undefined }, EMAILJS_TEXTS.templateIdRequired],
    ['an unknown user_id', { ...valid, user_id: 'nope' }, EMAILJS_TEXTS.publicKeyInvalid],
    ['an unknown service_id', { ...valid, service_id: 'nope' }, EMAILJS_TEXTS.serviceIdNotFound],
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

  test('refuses an e-mail parameter that is not one address with a 400 naming it', async () => {
    const { url, outboxDir } = await start()
    for (const email of ['a@example.com, b@example.com', 'not an address', '']) {
      const response = await sendJson(url, {
        ...valid,
        template_params: { ...contactParams, email },
      })
      expect(response.status).toBe(400)
      expect(await response.text()).toBe(
        'The template parameter "email" must hold one e-mail address: it is used in the Reply-To header',
      )
    }
    expect(emlFiles(outboxDir)).toEqual([])
  })
})

describe('account settings', () => {
  test('refuses a non-browser request with EmailJS’s 403 by default, then allows it', async () => {
    const refused = await start()
    const response = await postJson(refused.url, valid)
    expect(response.status).toBe(403)
    expect(await response.text()).toBe(EMAILJS_TEXTS.nonBrowserDisabled)
    expect(emlFiles(refused.outboxDir)).toEqual([])

    const allowed = await start({ allowNonBrowser: true })
    expect(await (await postJson(allowed.url, valid)).text()).toBe('OK')
    expect(emlFiles(allowed.outboxDir)).toHaveLength(1)
  })

  test('with a private key, refuses a request without it or with another, takes it', async () => {
    const { url, outboxDir } = await start({ privateKey: 'secret-key' })
    const missing = await sendJson(url, valid)
    expect([missing.status, await missing.text()]).toEqual([403, EMAILJS_TEXTS.privateKeyMissing])
    const wrong = await sendJson(url, { ...valid, accessToken: 'secret-kex' })
    expect([wrong.status, await wrong.text()]).toEqual([403, EMAILJS_TEXTS.privateKeyWrong])
    expect(emlFiles(outboxDir)).toEqual([])

    expect((await sendJson(url, { ...valid, accessToken: 'secret-key' })).status).toBe(200)
    const form = newsletterForm()
    form.append('accessToken', 'secret-key')
    expect((await sendForm(url, form)).status).toBe(200)
    expect(emlFiles(outboxDir)).toHaveLength(2)
  })
})

describe('CORS and origins', () => {
  const site = 'https://facet.example'

  test('answers a preflight for the SDK’s JSON request', async () => {
    const { url } = await start({ allowedOrigins: [site] })
    const response = await fetch(`${url}/api/v1.0/email/send`, {
      method: 'OPTIONS',
      headers: {
        Origin: site,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(site)
    expect(response.headers.get('access-control-allow-methods')).toBe('POST')
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type')
  })

  test('lets an allowed origin read the answer, success and refusal alike', async () => {
    const { url } = await start({ allowedOrigins: [site] })
    const ok = await sendJson(url, valid, { Origin: site })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe(site)
    const refused = await sendJson(url, { ...valid, template_id: 'nope' }, { Origin: site })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('access-control-allow-origin')).toBe(site)
  })

  test('refuses another origin with a 403 its page can read, and writes nothing', async () => {
    const { url, outboxDir } = await start({ allowedOrigins: [site] })
    const other = await sendJson(url, valid, { Origin: 'https://evil.example' })
    expect(other.status).toBe(403)
    expect(await other.text()).toBe(EMAILJS_TEXTS.forbiddenOrigin)
    expect(other.headers.get('access-control-allow-origin')).toBe('https://evil.example')
    expect(emlFiles(outboxDir)).toEqual([])
    // Its own origin is always allowed.
    expect((await sendJson(url, valid, { Origin: url })).status).toBe(200)
  })

  test('allows the public origin a proxy in front passes on, and no other', async () => {
    const { url } = await start()
    const proxied = { 'X-Forwarded-Host': 'www.studio.example', 'X-Forwarded-Proto': 'https' }
    const ok = await sendJson(url, valid, { ...proxied, Origin: 'https://www.studio.example' })
    expect(ok.status).toBe(200)
    const other = await sendJson(url, valid, { ...proxied, Origin: 'https://evil.example' })
    expect(other.status).toBe(403)
  })
})

describe('rate limit', () => {
  const withId = (c: string) => ({
    ...valid,
    template_params: { ...contactParams, message_id: `${c.repeat(8)}-0000-4000-8000-000000000000` },
  })

  test('by default answers a client’s second request within a second with 429 and Retry-After', async () => {
    const { url, outboxDir } = await start({ rateLimit: undefined })
    const client = { 'X-Forwarded-For': '203.0.113.9' }
    expect((await sendJson(url, withId('a'), client)).status).toBe(200)
    const limited = await sendJson(url, withId('b'), client)
    expect(limited.status).toBe(429)
    expect(await limited.text()).toBe(EMAILJS_TEXTS.tooManyRequests)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(emlFiles(outboxDir)).toEqual([`${'a'.repeat(8)}-0000-4000-8000-000000000000.eml`])
    // Another client has its own second.
    const other = { 'X-Forwarded-For': '203.0.113.10' }
    expect((await sendJson(url, withId('c'), other)).status).toBe(200)
  })

  test('gives a client one request per second, with no burst', () => {
    let now = 0
    const limiter = new RateLimiter(1, () => now)
    expect(limiter.take('a')).toEqual({ allowed: true })
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 })
    now = 999
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 })
    now = 2_000
    expect(limiter.take('a')).toEqual({ allowed: true })
    expect(limiter.take('a').allowed).toBe(false)
    expect(limiter.take('b')).toEqual({ allowed: true })
  })
})

describe('Reply-To from an e-mail parameter', () => {
  const templates = ['contact', 'newsletter'].map((name) =>
    parseTemplate(name, readFileSync(path.join(TEMPLATES, `${name}.json`), 'utf8')),
  )
  const emailish = fc.oneof(
    fc.emailAddress(),
    fc.tuple(fc.emailAddress(), fc.emailAddress()).map(([a, b]) => `${a}, ${b}`),
    fc
      .tuple(fc.emailAddress(), fc.constantFrom('\r\nBcc: x@y.z', ';', ' <b@c.d>', ','))
      .map(([a, tail]) => a + tail),
    fc.tuple(fc.string(), fc.emailAddress()).map(([name, a]) => `${name} <${a}>`),
    fc.string(),
  )

  test('is one valid address, or the message is refused with a 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates), emailish, async (template, email) => {
        const params = { ...contactParams, email }
        let rendered
        try {
          rendered = renderTemplate(template, params)
        } catch (error) {
          expect(error).toBeInstanceOf(EmailJsError)
          expect((error as EmailJsError).status).toBe(400)
          expect((error as Error).message).toContain('"email"')
          return
        }
        const { raw } = await composeMessage(contactParams.message_id, rendered, {
          template: 'contact',
        })
        const parsed = await PostalMime.parse(raw)
        // One address, valid, and the one the parameter holds (`Name <a@b.c>` counts as one).
        expect(parsed.replyTo).toHaveLength(1)
        const address = parsed.replyTo![0].address!
        expect(z.email().safeParse(address).success).toBe(true)
        expect(email).toContain(address)
        expect(parsed.headers.filter((h) => h.key === 'bcc')).toEqual([])
        expect(parsed.to?.map((a) => a.address)).toEqual(['hello@facet.studio'])
      }),
      { numRuns: 300 },
    )
  })
})

describe('POST /api/v1.0/email/send-form', () => {
  test('takes multipart form data as sendForm sends it', async () => {
    const { url, outboxDir } = await start()
    const response = await sendForm(url, newsletterForm())
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('OK')
    const [file] = emlFiles(outboxDir)
    const email = await PostalMime.parse(readFileSync(path.join(outboxDir, file)))
    expect(email.text).toContain('E-mail: reader@example.com')
    expect(email.text).toContain('Language: fr-fr')
    expect(email.text).not.toContain('user_id')
  })

  test('names the .eml and its X-Facet-Message-Id after the form’s message_id', async () => {
    const { url, outboxDir } = await start()
    expect((await sendForm(url, newsletterForm())).status).toBe(200)
    const id = newsletterForm().get('message_id')
    expect(emlFiles(outboxDir)).toEqual([`${id}.eml`])
    const email = await PostalMime.parse(readFileSync(path.join(outboxDir, `${id}.eml`)))
    expect(email.headers.find((h) => h.key === 'x-facet-message-id')?.value).toBe(id)
    expect(email.text).toContain(`Message id: ${id}`)
  })

  test('with the dedupe option, keys a repeated send-form on its message_id', async () => {
    const { url, outboxDir } = await start({ dedupe: true })
    expect((await sendForm(url, newsletterForm())).status).toBe(200)
    expect((await sendForm(url, newsletterForm())).status).toBe(200)
    expect(emlFiles(outboxDir)).toEqual([`${newsletterForm().get('message_id')}.eml`])
  })

  test('an empty message_id (what a reset hidden input sends) is not the one stored', async () => {
    // The fault the site had: the mail API can only make up an id, which no visitor was shown.
    const { url, outboxDir } = await start()
    const form = newsletterForm()
    form.set('message_id', '')
    expect((await sendForm(url, form)).status).toBe(200)
    const [file] = emlFiles(outboxDir)
    expect(file).toMatch(/^[0-9a-f-]{36}\.eml$/)
  })

  test('returns 400 user_id required for an empty form', async () => {
    const { url } = await start()
    const response = await sendForm(url, new FormData())
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

  test('relays each accepted request over SMTP', async () => {
    const relay = await smtp()
    const { url, outboxDir } = await start({ smtpUrl: relay.url })
    expect((await sendJson(url, valid)).status).toBe(200)
    expect(relay.received).toHaveLength(1)
    expect(relay.received[0].to).toEqual(['hello@facet.studio'])
    const email = await PostalMime.parse(relay.received[0].raw)
    expect(email.text).toContain(contactParams.message.replace(/\r\n/g, '\n'))
    expect(emlFiles(outboxDir)).toHaveLength(1)
  })

  test('a failed relay answers 502 and keeps nothing in the outbox; the retry is relayed again', async () => {
    const relay = await smtp(true)
    const { url, outboxDir } = await start({ smtpUrl: relay.url })
    expect((await sendJson(url, valid)).status).toBe(502)
    expect(emlFiles(outboxDir)).toEqual([])
    // The retry of the same id is attempted again (502 again), and still leaves nothing behind.
    expect((await sendJson(url, valid)).status).toBe(502)
    expect(emlFiles(outboxDir)).toEqual([])
  })
})
