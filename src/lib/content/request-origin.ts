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
    const allowed = new Set([new URL(siteUrl).origin, new URL(request.url).origin])
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
