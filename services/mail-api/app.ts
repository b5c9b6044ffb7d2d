import { randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import nodemailer, { type Transporter } from 'nodemailer'
import { checkIds, checkOrigin, type MailAccount } from './account'
import { EMAILJS_TEXTS, EmailJsError, toEmailJsError } from './errors'
import { composeMessage, MESSAGE_ID, Outbox } from './outbox'
import { RateLimiter } from './rate-limit'
import { readForm, readJson, type SendRequest } from './requests'
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
   * non-browser (see `isBrowserRequest` in account.ts).
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

type Env = { Bindings: { address?: string } }

function text(c: Context, status: number, body: string, headers: Record<string, string> = {}) {
  return c.body(body, status as 200, { 'Content-Type': 'text/plain; charset=utf-8', ...headers })
}

/** Creates the mail API. */
export function createMailApi(options: MailApiOptions): MailApi {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  const account: MailAccount = {
    publicKey: options.publicKey,
    serviceId: options.serviceId,
    allowedOrigins: options.allowedOrigins ?? [],
    allowNonBrowser: options.allowNonBrowser ?? false,
    privateKey: options.privateKey,
  }
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

  /** Validates a request as EmailJS does, then stores (and relays) its message. */
  async function handle(request: Request, sent: SendRequest): Promise<void> {
    const templateId = checkIds(request, sent.ids, account)
    const template = templates.get(templateId)
    if (sent.size > MAX_VARIABLES_BYTES)
      throw new EmailJsError(413, EMAILJS_TEXTS.variablesTooLarge)
    // EmailJS takes every field of a send-form (and every template parameter of a send) as a
    // template variable of the same name: `message_id` is one like any other, and EmailJS has no
    // id of its own a page could show. Here it names the `.eml`, its X-Facet-Message-Id and the
    // dedupe key; a request without a usable one (an empty field, another client's) gets an id
    // made here (Facet's choice), which no visitor was shown.
    const given = sent.params.message_id
    const id = given && MESSAGE_ID.test(given) ? given : randomUUID()
    if (options.dedupe && (storing.has(id) || outbox.has(id))) return
    storing.add(id)
    try {
      const rendered = renderTemplate(template, { ...sent.params, message_id: id })
      const { raw, envelope } = await composeMessage(id, rendered, {
        template: templateId,
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
      checkOrigin(c.req.raw, account)
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
