// Hashes for the inline scripts of a page, so that its Content Security Policy can allow exactly
// those scripts instead of `'unsafe-inline'`.
//
// Written here because nothing else fits static generation: Next.js offers per-request nonces,
// which make every page dynamic, and its experimental SRI covers external scripts only. The App
// Router's inline scripts carry the page's data and change whenever a page is revalidated, so the
// hashes are taken from each HTML response as the server first sends it (server/page-cache.mjs: once per version of a prerendered page).
//
// Only scripts of the exact shapes Next.js writes are hashed, and only when their argument parses
// as JSON. Anything else (a script that content injected, say) stays unhashed and the browser
// refuses to run it.
import { createHash } from 'node:crypto'
import { isAfterPaintLoader } from './after-paint.mjs'

/** `self.__next_f.push(<JSON array>)`: a chunk of the page's data. */
const FLIGHT_CHUNK = /^self\.__next_f\.push\((.*)\)$/s
/** The first script of the data stream, optionally followed by the form state. */
const FLIGHT_START =
  /^\(self\.__next_f=self\.__next_f\|\|\[\]\)\.push\(\[0\]\)(?:;self\.__next_f\.push\((.*)\))?$/s
/** Turbopack's chunk registration: `(globalThis["TURBOPACK"] || …).push(<JSON>);` */
const TURBOPACK_BOOTSTRAP =
  /^\(globalThis\["TURBOPACK"\] \|\| \(globalThis\["TURBOPACK"\] = \[\]\)\)\.push\((.*)\);?$/s

/** Types that browsers execute as script; anything else (JSON-LD, say) is data, not code. */
const SCRIPT_TYPES = new Set(['', 'text/javascript', 'application/javascript', 'module'])

function isJson(text, check) {
  try {
    return check(JSON.parse(text))
  } catch {
    return false
  }
}

/** Whether an inline script is one Next.js wrote, recognised by its exact shape. */
export function isFrameworkScript(body) {
  const chunk = FLIGHT_CHUNK.exec(body)
  if (chunk)
    return isJson(chunk[1], (value) => Array.isArray(value) && typeof value[0] === 'number')
  const start = FLIGHT_START.exec(body)
  if (start) return start[1] === undefined || isJson(start[1], Array.isArray)
  const bootstrap = TURBOPACK_BOOTSTRAP.exec(body)
  if (bootstrap) return isJson(bootstrap[1], (value) => value !== null && typeof value === 'object')
  // The server's own loader for the chunk scripts (server/after-paint.mjs).
  return isAfterPaintLoader(body)
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi
const SRC = /(?:^|\s)src\s*=/i
const TYPE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i

/**
 * The `'sha256-…'` sources for the framework's inline scripts in `html`, and the number of
 * inline scripts that were left out (they will not run).
 */
export function inlineScriptHashes(html) {
  const hashes = new Set()
  let refused = 0
  for (const [, attributes, body] of html.matchAll(SCRIPT)) {
    if (SRC.test(attributes)) continue
    const type = TYPE.exec(attributes)
    const kind = (type ? (type[1] ?? type[2] ?? type[3]) : '').trim().toLowerCase()
    if (!SCRIPT_TYPES.has(kind)) continue
    if (!isFrameworkScript(body)) {
      refused++
      continue
    }
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return { hashes: [...hashes], refused }
}

/** The policy with `'unsafe-inline'` in `script-src` replaced by the page's script hashes. */
export function withScriptHashes(policy, hashes) {
  return policy
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/)
      if (name !== 'script-src') return directive.trim()
      const kept = sources.filter((source) => source !== "'unsafe-inline'")
      return [name, ...kept, ...hashes].join(' ')
    })
    .join('; ')
}
