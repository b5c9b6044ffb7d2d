/**
 * The origins a request was addressed to: its URL's, and the one its `Host` names (with
 * `X-Forwarded-Proto`'s scheme when a proxy set it), and `X-Forwarded-Host`'s, so that the site
 * knows itself whether it is reached as localhost, 127.0.0.1, a LAN address or through a proxy.
 * A browser cannot forge these headers on another site's behalf: it sets `Host` itself, and a
 * cross-origin page cannot add `X-Forwarded-*` without a CORS preflight, which the site refuses.
 */
export function requestOrigins(request: Request): string[] {
  const url = new URL(request.url)
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined
  const proto = first('x-forwarded-proto')
  const scheme = proto === 'http' || proto === 'https' ? `${proto}:` : url.protocol
  const origins = new Set([url.origin])
  for (const host of [request.headers.get('host'), first('x-forwarded-host')]) {
    if (!host) continue
    try {
      origins.add(new URL(`${scheme}//${host}`).origin)
    } catch {
      // A malformed Host names no origin.
    }
  }
  return [...origins]
}

/** The origins that count as this site for a request: `siteUrl`'s and the request's own. */
export function siteOrigins(request: Request, siteUrl: string): string[] {
  return [new URL(siteUrl).origin, ...requestOrigins(request)]
}

/**
 * Cross-site request refusal for the site's state-changing endpoints (CSRF). A browser sends
 * `Origin` with every cross-origin POST and `Sec-Fetch-Site` with every request; a server-to-
 * server caller (Prismic's webhook, curl) sends neither. So a request is refused when either
 * header says it comes from another site; one without them is judged by its secret alone.
 */
export function isCrossSite(request: Request, siteUrl: string): boolean {
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true
  const origin = request.headers.get('origin')
  if (origin === null) return false
  if (origin === 'null') return true
  try {
    const allowed = new Set(siteOrigins(request, siteUrl))
    return !allowed.has(new URL(origin).origin)
  } catch {
    return true
  }
}

/** The answer to a refused cross-site request. */
export function crossSiteRefusal(): Response {
  return Response.json(
    { error: 'Cross-site requests are refused: the Origin is not this site.' },
    { status: 403, headers: { 'Cache-Control': 'no-store' } },
  )
}

/**
 * A Prismic preview token is a URL on the repository's own host, under `/previews/` beside the
 * API (`https://<repo>.prismic.io/previews/…` for an endpoint `https://<repo>.cdn.prismic.io/
 * api/v2`; `<site>/local/prismic/previews/…` for the embedded API at `<site>/local/prismic/
 * api/v2`). Anything else (a string, another host) is refused before it reaches a cookie or the
 * client.
 */
export function isPreviewToken(token: string | null | undefined, endpoint: string): boolean {
  if (!token) return false
  try {
    const url = new URL(token)
    const api = new URL(endpoint)
    if (url.protocol !== 'https:' && url.protocol !== api.protocol) return false
    const host = api.host.replace('.cdn.prismic.io', '.prismic.io')
    const previews = `${api.pathname.replace(/\/api\/v2\/?$/, '')}/previews/`
    return (url.host === host || url.host === api.host) && url.pathname.startsWith(previews)
  } catch {
    return false
  }
}
