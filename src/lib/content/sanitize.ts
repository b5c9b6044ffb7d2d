/**
 * CMS content is untrusted: an editor's account (or a compromised repository) must not be able to
 * run script on the site. Two defences live here, both hand-written because they are small and
 * no installed library does exactly this for Prismic's JSON shapes:
 *
 * - `safeHref`: an allowlist of URL schemes (http, https, mailto, tel, or a relative URL), read
 *   the way a browser reads it (control characters, whitespace and HTML entities undone first),
 *   so `JaVa\tScRiPt:`, ` javascript:`, `javascript&#58;` and `&#x6A;avascript:` are all refused.
 * - `sanitizeContent`: walks a Content API answer and neutralises every link whose URL fails
 *   `safeHref` (it becomes an empty link, which renders as plain text), every embed's raw HTML
 *   (dropped: embeds render as a plain link to their URL), and rich-text embed blocks (removed,
 *   since `PrismicRichText` would inject their HTML).
 */

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel'])

const NAMED_ENTITIES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  amp: '&',
  sol: '/',
  lpar: '(',
  rpar: ')',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
}

/** Decodes numeric and the common named HTML entities, repeatedly (`&amp;#58;` too). */
function decodeEntities(value: string): string {
  let previous: string
  let current = value
  let rounds = 0
  do {
    previous = current
    current = current.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (match, body: string) => {
      if (body[0] === '#') {
        const code =
          body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1))
        return Number.isFinite(code) && code >= 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : ''
      }
      return NAMED_ENTITIES[body.toLowerCase()] ?? match
    })
    rounds++
  } while (current !== previous && rounds < 5)
  return current
}

/**
 * The URL when it is safe to put in an `href` (or `src`), else undefined. Safe means: a relative
 * URL or fragment, or an absolute one whose scheme is http, https, mailto or tel.
 */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined
  // As a browser's URL parser: control characters and spaces around, tabs and newlines anywhere,
  // are ignored; we drop every control character and all whitespace to be stricter.
  const normalized = decodeEntities(url).replace(
    /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u205f\u3000\ufeff]/g,
    '',
  )
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(normalized)
  if (scheme) return SAFE_SCHEMES.has(scheme[1].toLowerCase()) ? url : undefined
  // No scheme: relative. A colon before any slash could still be read as a scheme by something
  // (e.g. `javascript&colon;` already handled above); refuse anything else odd.
  if (/^[^/?#]*:/.test(normalized)) return undefined
  return url
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An empty link field: renders as its text alone. */
const EMPTY_LINK = { link_type: 'Any' } as const

/**
 * A copy of `value` (a Content API answer or any part of one) with dangerous links emptied,
 * embed HTML dropped and rich-text embed blocks removed. Counts what it changed in `report`.
 */
export function sanitizeContent<T>(
  value: T,
  report: { neutralised: number } = { neutralised: 0 },
): T {
  return walk(value as Json, report) as T
}

function walk(value: Json, report: { neutralised: number }): Json {
  if (Array.isArray(value)) {
    const out: Json[] = []
    for (const item of value) {
      // A rich-text embed block: PrismicRichText would write its `oembed.html` as raw HTML.
      if (isObject(item) && item.type === 'embed' && isObject(item.oembed)) {
        report.neutralised++
        continue
      }
      // A rich-text hyperlink span whose data is not a link (no `link_type`): PrismicRichText's
      // link throws on it. The span goes; its text stays.
      if (
        isObject(item) &&
        item.type === 'hyperlink' &&
        !(isObject(item.data) && typeof item.data.link_type === 'string')
      ) {
        report.neutralised++
        continue
      }
      // A rich-text image whose URL is not safe: nothing to show.
      if (isObject(item) && item.type === 'image' && 'dimensions' in item && !safeHref(item.url)) {
        report.neutralised++
        continue
      }
      out.push(walk(item, report))
    }
    return out
  }
  if (!isObject(value)) return value
  // A link field (or a rich-text hyperlink's data, or an image's linkTo).
  // (A document link's `url` is null until a route resolves it: that is not a dangerous URL.)
  if (typeof value.link_type === 'string' && value.url != null && !safeHref(value.url)) {
    report.neutralised++
    return { ...EMPTY_LINK }
  }
  const out: Record<string, Json> = {}
  for (const [key, item] of Object.entries(value)) out[key] = walk(item, report)
  // An embed field: keep what it points to, never its HTML.
  if (typeof out.embed_url === 'string' && ('html' in out || 'type' in out)) {
    if (out.html != null) report.neutralised++
    out.html = null
    if (!safeHref(out.embed_url)) out.embed_url = null
  }
  // Images and other `url` values: a data: or javascript: URL in an img src cannot run script,
  // but nothing legitimate needs one either.
  if (typeof out.url === 'string' && out.url !== '' && !safeHref(out.url)) {
    report.neutralised++
    out.url = null
  }
  return out
}
