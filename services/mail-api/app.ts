import { randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import nodemailer, { type Transporter } from 'nodemailer'
import { EMAILJS_TEXTS, EmailJsError, toEmailJsError } from './errors'
import { composeMessage, MESSAGE_ID, Outbox, type OutboxAttachment } from './outbox'
import { renderTemplate, TemplateStore } from './templates'

/**
 * The embedded, EmailJS-compatible mail API: a Web-standard `Request → Response` handler (Hono).
 * It takes exactly what `@emailjs/browser` sends to `POST /api/v1.0/email/send` (JSON) and
 * `/send-form` (multipart), validates it as EmailJS does, renders the template from
 * `content/email-templates/`, writes one `.eml` per message into the outbox (a repeated message
 * id is stored once), optionally relays it over SMTP, and answers `200 OK`. The site mounts it at
 * `/local/emailjs`; `cli.ts` serves it standalone.
 */

/** The largest template variables EmailJS processes, all together. */
export const MAX_VARIABLES_BYTES = 50 * 1024
/** Requests whose body is larger than this are refused before they are read. */
const MAX_BODY_BYTES = 4 * 1024 * 1024

export type MailApiOptions = {
  /** The public key (`user_id`) the API accepts. */
  publicKey: string
  /** The service id the API accepts. */
  serviceId: string
  /** The folder of templates (`<template id>.json`). */
  templatesDir: string
  /** Where `.eml` files are written. */
  outboxDir: string
  /** When set, each accepted message is also relayed over SMTP (`smtp://` or `smtps://`). */
  smtpUrl?: string
  /** Where the API is mounted: `/local/emailjs` in the site, `` standalone. */
  basePath?: string
  /**
   * Origins allowed to send from a browser, besides the API's own origin (same origin is always
   * allowed). Requests without an `Origin` header (not from a browser) are allowed.
   */
  allowedOrigins?: string[]
  /** Requests each client may burst, then per second (off when `false`). Default 10, then 1/s. */
  rateLimit?: { burst: number; perSecond: number } | false
  /** The client's address, for the rate limit. Default: the first `X-Forwarded-For` entry. */
  clientAddress?: (request: Request) => string | undefined
}

export type MailApi = {
  /** Answers one request; `client.address` (the socket's) wins over `clientAddress(request)`. */
  fetch: (request: Request, client?: { address?: string }) => Promise<Response>
  outbox: Outbox
  close: () => void
}

type Bucket = { tokens: number; at: number }

function text(c: Context, status: number, body: string): Response {
  return c.body(body, status as 200, { 'Content-Type': 'text/plain; charset=utf-8' })
}

/** Template parameter values as strings, as they appear in the e-mail. */
function stringify(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8')
}

/** Creates the mail API. */
export function createMailApi(options: MailApiOptions): MailApi {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  const templates = new TemplateStore(options.templatesDir)
  const outbox = new Outbox(options.outboxDir)
  const relay: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined
  const limit = options.rateLimit === undefined ? { burst: 10, perSecond: 1 } : options.rateLimit
  const buckets = new Map<string, Bucket>()
  const clientAddress =
    options.clientAddress ??
    ((request: Request) => request.headers.get('x-forwarded-for')?.split(',')[0]?.trim())

  /** 403 for a browser request from an origin that is neither ours nor allowed. */
  function checkOrigin(request: Request): void {
    const origin = request.headers.get('origin')
    if (!origin) return
    const own = new URL(request.url)
    const host = request.headers.get('host')
    const allowed = new Set([own.origin, ...(options.allowedOrigins ?? [])])
    if (host) allowed.add(`${own.protocol}//${host}`)
    // Behind a proxy that passes the public host on (Facet's own choice: EmailJS has one origin).
    const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
    if (forwarded)
      allowed.add(
        `${proto === 'https' || proto === 'http' ? `${proto}:` : own.protocol}//${forwarded}`,
      )
    if (!allowed.has(origin)) throw new EmailJsError(403, EMAILJS_TEXTS.forbiddenOrigin)
  }

  /** 429 when this client has used its burst; tokens come back at `perSecond`. */
  function checkRate(request: Request, socketAddress: string | undefined): void {
    if (!limit) return
    const key = socketAddress ?? clientAddress(request) ?? 'unknown'
    const now = Date.now()
    const bucket = buckets.get(key) ?? { tokens: limit.burst, at: now }
    bucket.tokens = Math.min(
      limit.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond,
    )
    bucket.at = now
    if (bucket.tokens < 1) {
      buckets.set(key, bucket)
      throw new EmailJsError(429, EMAILJS_TEXTS.tooManyRequests)
    }
    bucket.tokens -= 1
    buckets.set(key, bucket)
    if (buckets.size > 10_000) {
      for (const [k, b] of buckets) if (now - b.at > 60_000) buckets.delete(k)
    }
  }

  function checkBodySize(request: Request): void {
    const length = Number(request.headers.get('content-length') ?? 0)
    if (length > MAX_BODY_BYTES) throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
  }

  /** Validates ids as EmailJS does: required first, then known. */
  function checkIds(ids: { user_id?: unknown; service_id?: unknown; template_id?: unknown }) {
    if (typeof ids.user_id !== 'string' || ids.user_id === '')
      throw new EmailJsError(400, EMAILJS_TEXTS.userIdRequired)
    if (typeof ids.service_id !== 'string' || ids.service_id === '')
      throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdRequired)
    if (typeof ids.template_id !== 'string' || ids.template_id === '')
      throw new EmailJsError(400, EMAILJS_TEXTS.templateIdRequired)
    if (ids.user_id !== options.publicKey)
      throw new EmailJsError(400, EMAILJS_TEXTS.publicKeyInvalid)
    if (ids.service_id !== options.serviceId)
      throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdInvalid)
    return { templateId: ids.template_id }
  }

  /** Renders, stores (once per message id) and relays one message. */
  async function accept(
    templateId: string,
    params: Record<string, string>,
    attachments: OutboxAttachment[],
  ): Promise<void> {
    const template = templates.get(templateId)
    const given = params.message_id
    const id = given && MESSAGE_ID.test(given) ? given : randomUUID()
    if (outbox.has(id)) return
    const rendered = renderTemplate(template, { ...params, message_id: id })
    const { raw, envelope } = await composeMessage(id, rendered, {
      template: templateId,
      attachments,
    })
    const stored = await outbox.store(id, raw)
    if (!stored || !relay) return
    try {
      await relay.sendMail({ envelope, raw })
    } catch (error) {
      // Not relayed: forget it, so the visitor's retry (the message is still in their browser)
      // stores and relays it again instead of being answered as a duplicate.
      await outbox.remove(id)
      throw new EmailJsError(502, `The SMTP relay failed: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }

  const app = new Hono<{ Bindings: { address?: string } }>().basePath(base || '/')

  app.onError((error, c) => {
    const refusal = toEmailJsError(error)
    if (refusal.status >= 500) console.error('mail API:', error)
    return text(c, refusal.status, refusal.message)
  })

  app.post('/api/v1.0/email/send', async (c) => {
    checkOrigin(c.req.raw)
    checkRate(c.req.raw, c.env?.address)
    checkBodySize(c.req.raw)
    let body: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(await c.req.text())
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {}
    } catch {
      body = {}
    }
    const { templateId } = checkIds(body)
    const raw = body.template_params
    const paramsIn =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}
    const params: Record<string, string> = {}
    for (const [key, value] of Object.entries(paramsIn)) params[key] = stringify(value)
    if (byteLength(JSON.stringify(params)) > MAX_VARIABLES_BYTES)
      throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
    await accept(templateId, params, [])
    return text(c, 200, 'OK')
  })

  app.post('/api/v1.0/email/send-form', async (c) => {
    checkOrigin(c.req.raw)
    checkRate(c.req.raw, c.env?.address)
    checkBodySize(c.req.raw)
    let form: FormData
    try {
      form = await c.req.raw.formData()
    } catch {
      form = new FormData()
    }
    const ids = {
      user_id: form.get('user_id') ?? undefined,
      service_id: form.get('service_id') ?? undefined,
      template_id: form.get('template_id') ?? undefined,
    }
    const { templateId } = checkIds(ids)
    const params: Record<string, string> = {}
    const attachments: OutboxAttachment[] = []
    let size = 0
    for (const [key, value] of form.entries()) {
      if (['user_id', 'service_id', 'template_id', 'lib_version', 'accessToken'].includes(key))
        continue
      if (typeof value === 'string') {
        params[key] = key in params ? `${params[key]}, ${value}` : value
        size += byteLength(key) + byteLength(value)
      } else if (value.size > 0) {
        attachments.push({
          filename: value.name,
          contentType: value.type || 'application/octet-stream',
          content: Buffer.from(await value.arrayBuffer()),
        })
        size += value.size
      }
    }
    if (size > MAX_VARIABLES_BYTES) throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
    await accept(templateId, params, attachments)
    return text(c, 200, 'OK')
  })

  app.all('*', (c) => text(c, 404, 'Not Found'))

  return {
    fetch: async (request, client) => app.fetch(request, { address: client?.address }),
    outbox,
    close: () => relay?.close(),
  }
}
