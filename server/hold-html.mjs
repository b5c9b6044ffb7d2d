// Holds back an HTML page that Next.js writes until it is complete, so that the serving layer can
// rewrite it (scripts after the first paint, script hashes in its policy) and send it itself.
// Other responses pass straight through. Pages here are static or small, so holding one back
// costs no more than a copy.

/** Set on a response whose HTML the layer sends itself (compression must leave it alone). */
export const HELD = Symbol('facet.heldHtml')

/** Headers that belong to one transfer of a body, never to the page itself. */
export const TRANSFER_HEADERS = [
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]

/**
 * A 304 that Next.js sends carries the site's base policy (`'unsafe-inline'`, no hashes): it
 * never saw the page's scripts. A browser merges a 304's headers into the page it kept (RFC 9111,
 * section 4.3.4), so the page it then shows would run under that base policy, not the one with
 * the page's hashes it was sent with. A 304 here carries no policy, and the kept page keeps its
 * own (RFC 9110, section 15.4.5: a 304 need not repeat representation metadata).
 */
function dropPolicyFromNotModified(res, statusCode = res.statusCode, headers) {
  if (statusCode !== 304 || res.headersSent) return
  res.removeHeader('content-security-policy')
  if (headers && !Array.isArray(headers))
    for (const key of Object.keys(headers))
      if (key.toLowerCase() === 'content-security-policy') delete headers[key]
}

/**
 * Wraps `res` so that an HTML response with a Content Security Policy is collected instead of
 * sent: once Next.js ends it, `onPage({ status, headers, body })` gets the status, the headers
 * (without those of the transfer) and the whole body, and must answer `res` itself through
 * `send(status, headers, body)`, which writes straight to the connection.
 */
export function holdHtml(res, onPage) {
  const chunks = []
  let holding
  const isHtml = () => {
    if (holding === undefined) {
      const type = String(res.getHeader('content-type') ?? '')
      holding = type.startsWith('text/html') && res.getHeader('content-security-policy') != null
      if (holding) res[HELD] = true
    }
    return holding
  }
  const { write, end, writeHead, flushHeaders } = res
  res.flushHeaders = function () {
    dropPolicyFromNotModified(this)
    if (!isHtml()) return flushHeaders.call(this)
  }
  res.writeHead = function (statusCode, ...rest) {
    dropPolicyFromNotModified(
      this,
      statusCode,
      rest.find((value) => value && typeof value === 'object'),
    )
    if (!isHtml()) return writeHead.call(this, statusCode, ...rest)
    // Kept for the end: the page is only sent once it is whole.
    this.statusCode = statusCode
    const headers = rest.find((value) => value && typeof value === 'object')
    if (Array.isArray(headers)) {
      for (let i = 0; i < headers.length; i += 2) this.setHeader(headers[i], headers[i + 1])
    } else if (headers) {
      for (const [key, value] of Object.entries(headers)) this.setHeader(key, value)
    }
    return this
  }
  res.write = function (chunk, encoding, callback) {
    dropPolicyFromNotModified(this)
    if (!isHtml()) return write.call(this, chunk, encoding, callback)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding))
    if (typeof encoding === 'function') encoding()
    else if (typeof callback === 'function') callback()
    return true
  }
  res.end = function (chunk, encoding, callback) {
    dropPolicyFromNotModified(this)
    if (!isHtml()) return end.call(this, chunk, encoding, callback)
    if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined]
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined]
    if (chunk != null) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding))
    const headers = this.getHeaders()
    for (const name of TRANSFER_HEADERS) delete headers[name]
    // Hand the response back: from here on the layer writes it itself.
    Object.assign(this, { write, end, writeHead, flushHeaders })
    onPage({ status: this.statusCode, headers, body: Buffer.concat(chunks) })
    if (typeof callback === 'function') this.once('finish', callback)
    return this
  }
}
