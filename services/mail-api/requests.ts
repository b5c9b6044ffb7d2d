import type { OutboxAttachment } from './outbox'

/**
 * Reading what the EmailJS SDKs send: `/send`'s JSON and `/send-form`'s multipart, into one
 * shape. A body that cannot be read reads as one with no ids, which EmailJS answers with its
 * "parameter is required" 400.
 */

/** What a request asks for, whichever endpoint it came through. */
export type SendRequest = {
  ids: { user_id?: unknown; service_id?: unknown; template_id?: unknown; accessToken?: unknown }
  params: Record<string, string>
  attachments: OutboxAttachment[]
  /** Bytes of template variables (and attachments), for EmailJS's 50 KB limit. */
  size: number
}

/** Form fields that configure the request rather than fill the template. */
const REQUEST_FIELDS = new Set([
  'user_id',
  'service_id',
  'template_id',
  'lib_version',
  'accessToken',
])

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

/** `/send`: JSON, `template_params` an object of values (each read as a string). */
export async function readJson(request: Request): Promise<SendRequest> {
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
export async function readForm(request: Request): Promise<SendRequest> {
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
