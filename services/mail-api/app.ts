import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import nodemailer, { type Transporter } from 'nodemailer'
import { EMAILJS_TEXTS, EmailJsError, toEmailJsError } from './errors'
import { composeMessage, MESSAGE_ID, Outbox, type OutboxAttachment } from './outbox'
import { RateLimiter } from './rate-limit'
import { renderTemplate, TemplateStore } from './templates'

/**
 * The embedded, EmailJS-compatible mail API: a Web-standard `Request → Response` handler (Hono).
 * It takes exactly what the EmailJS SDKs send to `POST /api/v1.0/email/send` (JSON) and
 * `/send-form` (multipart), refuses what EmailJS refuses, with EmailJS's statuses and texts,
 * renders the template from `content/email-templates/`, writes one `.eml` per accepted request
 * into the outbox, optionally relays it over SMTP, and answers `200 OK`. Like EmailJS, it does
 * not deduplicate. The site mounts it at `/local/emailjs`; `cli.ts` serves it standalone.
 * docs/mail-api.md lists every answer and its source.
 */

/** The largest template variables EmailJS processes, all together (EmailJS's docs: 50 KB). */
export const MAX_VARIABLES_BYTES = 50 * 1024
/** Requests whose body is larger than this are refused before they are read (Facet's own). */
const MAX_BODY_BYTES = 4 * 1024 * 1024
/** EmailJS's reserved service id for the account's default service (its REST docs). */
export const DEFAULT_SERVICE = 'default_service'
/** Form fields that configure the request rather than fill the template. */
const REQUEST_FIELDS = new Set([
  'user_id',
  'service_id',
  'template_id',
  'lib_version',
  'accessToken',
])

export type MailApiOptions = {
  /** The public key (`user_id`) the API accepts. */
  publicKey: string
  /** The account's one service id; `default_service` names it too. */
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
   * Origins a browser may send from, besides the API's own origin (always allowed). A browser
   * request from any other origin is refused with 403; the refusal carries CORS headers, so the
   * page's SDK sees the 403 instead of a network error.
   */
  allowedOrigins?: string[]
  /**
   * EmailJS's Account > Security setting "Allow EmailJS API for non-browser applications": off
   * by default, as on a new EmailJS account. A request without an `Origin` header is taken as
   * non-browser (see `isBrowserRequest`).
   */
  allowNonBrowser?: boolean
  /**
   * The account's private key. When set ("Use Private Key" on EmailJS), every request must carry
   * it as `accessToken`.
   */
  privateKey?: string
  /** Requests per second per client address; `false` turns the limit off. Default 1 (EmailJS's). */
  rateLimit?: number | false
  /**
   * Facet's own, for local use: answer a repeated `message_id` with 200 without storing it
   * again. Off by default, because EmailJS sends every request it accepts.
   */
  dedupe?: boolean
  /** The client's address, for the rate limit. Default: the first `X-Forwarded-For` entry. */
  clientAddress?: (request: Request) => string | undefined
}

export type MailApi = {
  /** Answers one request; `client.address` (the socket's) wins over `clientAddress(request)`. */
  fetch: (request: Request, client?: { address?: string }) => Promise<Response>
  outbox: Outbox
  close: () => void
}

/** What a request asks for, whichever endpoint it came through. */
type SendRequest = {
  ids: { user_id?: unknown; service_id?: unknown; template_id?: unknown; accessToken?: unknown }
  params: Record<string, string>
  attachments: OutboxAttachment[]
  /** Bytes of template variables (and attachments), for EmailJS's 50 KB limit. */
  size: number
}

type Env = { Bindings: { address?: string } }

function text(c: Context, status: number, body: string, headers: Record<string, string> = {}) {
  return c.body(body, status as 200, { 'Content-Type': 'text/plain; charset=utf-8', ...headers })
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

/**
 * True for a request from a browser. EmailJS does not document how it tells; every browser sends
 * `Origin` with a POST from a page (the Fetch standard, same-origin included), and no server
 * client does unless told to (`@emailjs/nodejs` sends none), so its absence marks a non-browser
 * call. Users working around the 403 by adding an `Origin` header report it passes, which
 * suggests EmailJS looks at the same header.
 */
function isBrowserRequest(request: Request): boolean {
  return request.headers.has('origin')
}

/** Compares secrets in constant time (their hashes have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

/** Creates the mail API. */
export function createMailApi(options: MailApiOptions): MailApi {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  const templates = new TemplateStore(options.templatesDir)
  const outbox = new Outbox(options.outboxDir)
  const relay: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined
  const perSecond = options.rateLimit === undefined ? 1 : options.rateLimit
  const limiter = perSecond ? new RateLimiter(perSecond) : undefined
  /** Message ids being stored now, so the dedupe option also holds for requests sent at once. */
  const storing = new Set<string>()
  const clientAddress =
    options.clientAddress ??
    ((request: Request) => request.headers.get('x-forwarded-for')?.split(',')[0]?.trim())

  /** The origins a browser may send from: the configured ones and the API's own. */
  function allowedOrigins(request: Request): Set<string> {
    const own = new URL(request.url)
    const allowed = new Set([own.origin, ...(options.allowedOrigins ?? [])])
    const host = request.headers.get('host')
    if (host) allowed.add(`${own.protocol}//${host}`)
    return allowed
  }

  /** 403 for a browser request from an origin that is neither ours nor allowed. */
  function checkOrigin(request: Request): void {
    const origin = request.headers.get('origin')
    if (origin && !allowedOrigins(request).has(origin))
      throw new EmailJsError(403, EMAILJS_TEXTS.forbiddenOrigin)
  }

  /** 429 when this client has had its request for this second; `Retry-After` says when. */
  function checkRate(request: Request, socketAddress: string | undefined): void {
    if (!limiter) return
    const decision = limiter.take(socketAddress ?? clientAddress(request) ?? 'unknown')
    if (!decision.allowed)
      throw new EmailJsError(429, EMAILJS_TEXTS.tooManyRequests, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      })
  }

  function checkBodySize(request: Request): void {
    const length = Number(request.headers.get('content-length') ?? 0)
    if (length > MAX_BODY_BYTES) throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
  }

  /** 400s for missing ids, in the order EmailJS names them, then for an unknown public key. */
  function checkPublicKey(ids: SendRequest['ids']): void {
    if (!nonEmptyString(ids.user_id)) throw new EmailJsError(400, EMAILJS_TEXTS.userIdRequired)
    if (!nonEmptyString(ids.service_id))
      throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdRequired)
    if (!nonEmptyString(ids.template_id))
      throw new EmailJsError(400, EMAILJS_TEXTS.templateIdRequired)
    if (ids.user_id !== options.publicKey)
      throw new EmailJsError(400, EMAILJS_TEXTS.publicKeyInvalid)
  }

  /**
   * The account's security settings, checked once `user_id` has named the account (Facet's
   * order: EmailJS's settings are per account, so they cannot apply before it is known).
   */
  function checkAccount(request: Request, ids: SendRequest['ids']): void {
    if (!options.allowNonBrowser && !isBrowserRequest(request))
      throw new EmailJsError(403, EMAILJS_TEXTS.nonBrowserDisabled)
    if (options.privateKey === undefined) return
    if (!nonEmptyString(ids.accessToken))
      throw new EmailJsError(403, EMAILJS_TEXTS.privateKeyMissing)
    if (!sameSecret(ids.accessToken, options.privateKey))
      throw new EmailJsError(403, EMAILJS_TEXTS.privateKeyWrong)
  }

  /** 400 for a service the account does not have; `default_service` is the account's one. */
  function checkService(ids: SendRequest['ids']): void {
    if (ids.service_id !== options.serviceId && ids.service_id !== DEFAULT_SERVICE)
      throw new EmailJsError(400, EMAILJS_TEXTS.serviceIdNotFound)
  }

  /** Validates a request as EmailJS does, then stores (and relays) its message. */
  async function handle(request: Request, sent: SendRequest): Promise<void> {
    checkPublicKey(sent.ids)
    checkAccount(request, sent.ids)
    checkService(sent.ids)
    const template = templates.get(sent.ids.template_id as string)
    if (sent.size > MAX_VARIABLES_BYTES)
      throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
    const given = sent.params.message_id
    const id = given && MESSAGE_ID.test(given) ? given : randomUUID()
    if (options.dedupe && (storing.has(id) || outbox.has(id))) return
    storing.add(id)
    try {
      const rendered = renderTemplate(template, { ...sent.params, message_id: id })
      const { raw, envelope } = await composeMessage(id, rendered, {
        template: sent.ids.template_id as string,
        attachments: sent.attachments,
      })
      const file = await outbox.store(id, raw)
      await relayOrForget(file, envelope, raw)
    } finally {
      storing.delete(id)
    }
  }

  async function relayOrForget(
    file: string,
    envelope: { from: string; to: string[] },
    raw: Buffer,
  ): Promise<void> {
    if (!relay) return
    try {
      await relay.sendMail({ envelope, raw })
    } catch (error) {
      // Not relayed: the outbox keeps only what was sent. The visitor's browser still has the
      // message and retries the 5xx, so it is relayed then.
      await outbox.remove(file)
      throw new EmailJsError(502, `The SMTP relay failed: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }

  /** `/send`: JSON. A body that is not a JSON object reads as one with no ids (400). */
  async function readJson(request: Request): Promise<SendRequest> {
    let body: Record<string, unknown> = {}
    try {
      const parsed: unknown = JSON.parse(await request.text())
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>
    } catch {
      // Not JSON: the ids are missing, which is what EmailJS answers.
    }
    const raw = body.template_params
    const given =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}
    const params: Record<string, string> = {}
    for (const [key, value] of Object.entries(given)) params[key] = stringify(value)
    return { ids: body, params, attachments: [], size: byteLength(JSON.stringify(params)) }
  }

  /** `/send-form`: multipart. Repeated fields are joined with ", "; files become attachments. */
  async function readForm(request: Request): Promise<SendRequest> {
    let form: FormData
    try {
      form = await request.formData()
    } catch {
      form = new FormData()
    }
    const field = (name: string) => form.get(name) ?? undefined
    const sent: SendRequest = {
      ids: {
        user_id: field('user_id'),
        service_id: field('service_id'),
        template_id: field('template_id'),
        accessToken: field('accessToken'),
      },
      params: {},
      attachments: [],
      size: 0,
    }
    for (const [key, value] of form.entries()) {
      if (REQUEST_FIELDS.has(key)) continue
      if (typeof value === 'string') {
        sent.params[key] = key in sent.params ? `${sent.params[key]}, ${value}` : value
        sent.size += byteLength(key) + byteLength(value)
      } else if (value.size > 0) {
        sent.attachments.push({
          filename: value.name,
          contentType: value.type || 'application/octet-stream',
          content: Buffer.from(await value.arrayBuffer()),
        })
        sent.size += value.size
      }
    }
    return sent
  }

  const app = new Hono<Env>().basePath(base || '/')

  // Every answer carries CORS headers for the requesting origin, refusals included: the browser
  // then hands the SDK the real status and text instead of a network error, which the site would
  // retry (and, after a 200 it could not read, send twice). Preflights are answered here.
  app.use(
    '*',
    cors({
      origin: (origin) => origin || null,
      allowMethods: ['POST'],
      allowHeaders: ['Content-Type'],
      exposeHeaders: ['Retry-After'],
      maxAge: 600,
    }),
  )

  app.onError((error, c) => {
    const refusal = toEmailJsError(error)
    if (refusal.status >= 500) console.error('mail API:', error)
    return text(c, refusal.status, refusal.message, refusal.headers)
  })

  const endpoint =
    (read: (request: Request) => Promise<SendRequest>) => async (c: Context<Env>) => {
      checkOrigin(c.req.raw)
      checkRate(c.req.raw, c.env?.address)
      checkBodySize(c.req.raw)
      await handle(c.req.raw, await read(c.req.raw))
      return text(c, 200, 'OK')
    }
  app.post('/api/v1.0/email/send', endpoint(readJson))
  app.post('/api/v1.0/email/send-form', endpoint(readForm))
  app.all('*', (c) => text(c, 404, 'Not Found'))

  return {
    fetch: async (request, client) => app.fetch(request, { address: client?.address }),
    outbox,
    close: () => relay?.close(),
  }
}
