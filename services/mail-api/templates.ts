import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { EMAILJS_TEXTS, EmailJsError } from './errors'

/**
 * E-mail templates: `content/email-templates/<template id>.json`. Every string may use `{{var}}`,
 * which is replaced by the template parameter `var`, escaped for where it lands: HTML-escaped in
 * `html`, verbatim in `text` (plain text is never interpreted), and refused with a 400 in header
 * fields when it holds a line break, so no parameter can add a header. `{{{var}}}` (EmailJS's
 * unescaped form) is refused when the template loads.
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
  to: string | { name: string; address: string }
  from: string | { name: string; address: string }
  replyTo?: string | { name: string; address: string }
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

function renderAddress(
  value: TemplateAddress,
  params: Record<string, string>,
  field: string,
): string | { name: string; address: string } {
  if (typeof value === 'string') return renderString(value, params, 'header', field)
  return {
    name: renderString(value.name ?? '', params, 'header', field),
    address: renderString(value.address, params, 'header', field),
  }
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
