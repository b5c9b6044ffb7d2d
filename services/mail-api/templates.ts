import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import addressparser from 'nodemailer/lib/addressparser'
import { z } from 'zod'
import { EMAILJS_TEXTS, EmailJsError } from './errors'

/**
 * E-mail templates: `content/email-templates/<template id>.json`. Every string may use `{{var}}`,
 * which is replaced by the template parameter `var`, escaped for where it lands: HTML-escaped in
 * `html`, verbatim in `text` (plain text is never interpreted), and refused with a 400 in header
 * fields when it holds a line break, so no parameter can add a header. An address field (To,
 * From, Reply-To) must render to exactly one valid address, or the request is refused with a 400
 * naming the parameter: a parameter holding `a@example.com, b@example.com` would otherwise add a
 * recipient or garble the header. `{{{var}}}` (EmailJS's unescaped form) is refused when the
 * template loads.
 */

/** An address in a template: `"a@b.c"`, `"Name <a@b.c>"`, or `{ name, address }`. */
export type TemplateAddress = string | { name?: string; address: string }

/** A template file's shape. */
export type EmailTemplate = {
  to: TemplateAddress
  from: TemplateAddress
  reply_to?: TemplateAddress
  subject: string
  text: string
  html?: string
}

/** The message a template renders to, ready for the composer. */
export type RenderedMessage = {
  to: { name: string; address: string }
  from: { name: string; address: string }
  replyTo?: { name: string; address: string }
  subject: string
  text: string
  html?: string
}

/** Thrown when a template file is malformed; names the file and the problem. */
export class TemplateError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`)
    this.name = 'TemplateError'
  }
}

const TEMPLATE_ID = /^[A-Za-z0-9_-]{1,64}$/
const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g
const LINE_BREAK = /[\r\n\u2028\u2029\u0085]/

function checkString(file: string, field: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return
  if (typeof value !== 'string') throw new TemplateError(file, `"${field}" must be a string`)
  if (value.includes('{{{'))
    throw new TemplateError(
      file,
      `"${field}" uses {{{…}}}: unescaped variables are not allowed, use {{…}}`,
    )
}

function checkAddress(file: string, field: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return
  if (typeof value === 'string') return checkString(file, field, value, true)
  if (value && typeof value === 'object' && 'address' in value) {
    const { name, address } = value as { name?: unknown; address?: unknown }
    checkString(file, `${field}.address`, address, true)
    checkString(file, `${field}.name`, name, false)
    return
  }
  throw new TemplateError(file, `"${field}" must be an address string or { "name", "address" }`)
}

/** Reads and checks one template file. Throws `TemplateError` naming the file and field. */
export function parseTemplate(file: string, source: string): EmailTemplate {
  let json: unknown
  try {
    json = JSON.parse(source)
  } catch (error) {
    throw new TemplateError(file, `not valid JSON (${(error as Error).message})`)
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new TemplateError(file, 'expected a JSON object')
  const t = json as Record<string, unknown>
  checkAddress(file, 'to', t.to, true)
  checkAddress(file, 'from', t.from, true)
  checkAddress(file, 'reply_to', t.reply_to, false)
  checkString(file, 'subject', t.subject, true)
  checkString(file, 'text', t.text, true)
  checkString(file, 'html', t.html, false)
  return t as EmailTemplate
}

/** Loads templates from a folder, by id, checking each when first used. */
export class TemplateStore {
  constructor(readonly dir: string) {}

  /** The template `id`, or a 400 with EmailJS's text when there is none. */
  get(id: string): EmailTemplate {
    const file = path.join(this.dir, `${id}.json`)
    if (!TEMPLATE_ID.test(id) || !existsSync(file))
      throw new EmailJsError(400, EMAILJS_TEXTS.templateIdNotFound)
    try {
      return parseTemplate(file, readFileSync(file, 'utf8'))
    } catch (error) {
      throw new EmailJsError(400, `The template is invalid: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])
}

type Escape = 'html' | 'text' | 'header'

/** Replaces each `{{var}}` in `source` with `params[var]` (empty when missing), escaped. */
export function renderString(
  source: string,
  params: Record<string, string>,
  escape: Escape,
  field = 'template',
): string {
  return source.replace(VARIABLE, (_match, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : ''
    if (escape === 'html') return escapeHtml(value)
    if (escape === 'header' && LINE_BREAK.test(value))
      throw new EmailJsError(
        400,
        `The template parameter "${name}" cannot contain a line break: it is used in the ${field} header`,
      )
    return value
  })
}

/** The address syntax the site's forms accept (zod's), so the API refuses nothing they send. */
const ONE_ADDRESS = z.email()

function isOneAddress(value: string): boolean {
  return ONE_ADDRESS.safeParse(value).success
}

/** The parameters `source` uses, for a message that names them. */
function variablesOf(source: string): string[] {
  return [...new Set([...source.matchAll(VARIABLE)].map((m) => m[1]))]
}

/** 400 naming the parameters that made `field` something other than one address. */
function notOneAddress(field: string, source: string): EmailJsError {
  const names = variablesOf(source)
  const text =
    names.length === 0
      ? `The template's ${field} header is not one e-mail address`
      : `The template parameter${names.length > 1 ? 's' : ''} ${names.map((n) => `"${n}"`).join(', ')} must hold one e-mail address: ${names.length > 1 ? 'they are' : 'it is'} used in the ${field} header`
  return new EmailJsError(400, text)
}

/** `"a@b.c"` or `"Name <a@b.c>"` as one `{ name, address }`, or undefined when it is not one. */
function parseOneAddress(value: string): { name: string; address: string } | undefined {
  const parsed = addressparser(value)
  // A group (`team: a@b.c;`) is not one address, even with one member.
  if (parsed.length !== 1 || 'group' in parsed[0]) return undefined
  const { name, address } = parsed[0] as { name: string; address?: string }
  return address !== undefined && isOneAddress(address) ? { name, address } : undefined
}

function renderAddress(
  value: TemplateAddress,
  params: Record<string, string>,
  field: string,
): { name: string; address: string } {
  if (typeof value === 'string') {
    const one = parseOneAddress(renderString(value, params, 'header', field))
    if (!one) throw notOneAddress(field, value)
    return one
  }
  const address = renderString(value.address, params, 'header', field).trim()
  if (!isOneAddress(address)) throw notOneAddress(field, value.address)
  return { name: renderString(value.name ?? '', params, 'header', field), address }
}

/** Renders a template with the message's parameters. */
export function renderTemplate(
  template: EmailTemplate,
  params: Record<string, string>,
): RenderedMessage {
  return {
    to: renderAddress(template.to, params, 'To'),
    from: renderAddress(template.from, params, 'From'),
    replyTo: template.reply_to ? renderAddress(template.reply_to, params, 'Reply-To') : undefined,
    subject: renderString(template.subject, params, 'header', 'Subject'),
    text: renderString(template.text, params, 'text'),
    html: template.html === undefined ? undefined : renderString(template.html, params, 'html'),
  }
}
