import { NextResponse, type NextRequest } from 'next/server'
import * as prismic from '@prismicio/client'
import { siteRouteIndex } from '@/lib/content/site-route-index'

/**
 * The localized 404, rendered in full on the server. Next.js 16 server-renders only an empty
 * shell for a `notFound()` thrown under the dynamic root layout `[lang]`, so an unknown path is
 * caught here, before any page, and rewritten with status 404 to the language's prerendered
 * not-found page (`src/app/[lang]/(site)/404/page.tsx`): the pattern Next's docs give (check the
 * path in the proxy, then rewrite to a not-found route). Its HTML has the heading, the text, the
 * header, the footer and `<html lang>` without JavaScript, and `noindex`.
 *
 * Which paths exist comes from the route index (src/lib/content/route-index.ts): per request, a
 * Set lookup; the repository is read again only when its master ref changes (docs/deploy.md).
 */

/** The not-found page's segment under each language. */
const NOT_FOUND_SEGMENT = '404'

/**
 * How long a shared cache (a CDN) may keep a 404: briefly, because publishing a document at
 * that path must show soon, also behind a CDN the webhook does not purge (no CDN_PURGE_URL).
 */
const NOT_FOUND_CACHE_CONTROL = 'public, max-age=0, s-maxage=60'

/** The header of server/page-cache.mjs (`SAME_FOR_EVERYONE_HEADER`). */
const SAME_FOR_EVERYONE_HEADER = 'x-facet-same-for-everyone'

/** The work and journal indexes of a language. */
const INDEX_PATH = /^\/[^/]+\/(?:work|journal)\/?$/

/** Cookies of a preview session: its visitor may open a document not yet published. */
const PREVIEW_COOKIES = [prismic.cookie.preview, '__prerender_bypass']

export async function proxy(request: NextRequest): Promise<NextResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return NextResponse.next()
  if (PREVIEW_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next()
  let verdict
  try {
    verdict = await siteRouteIndex().resolve(request.nextUrl.pathname)
  } catch (error) {
    // Content unreachable: the page itself decides (and says so, with its error page).
    console.error(error)
    return NextResponse.next()
  }
  if (verdict.found) {
    // The work and journal indexes render per request (their query strings), and each URL is
    // the same for every visitor: the production server may keep one for a second
    // (server/page-cache.mjs, which takes this header off).
    if (INDEX_PATH.test(request.nextUrl.pathname))
      return NextResponse.next({ headers: { [SAME_FOR_EVERYONE_HEADER]: '1' } })
    return NextResponse.next()
  }
  // A clone of nextUrl keeps the host Next.js knows itself by, so the rewrite stays internal
  // whatever host name the visitor used (a URL built on request.url went out as a proxy call).
  const target = request.nextUrl.clone()
  target.pathname = `/${verdict.lang}/${NOT_FOUND_SEGMENT}`
  target.search = ''
  return NextResponse.rewrite(target, {
    status: 404,
    headers: { 'x-robots-tag': 'noindex', 'cache-control': NOT_FOUND_CACHE_CONTROL },
  })
}

/**
 * Every path but the framework's and the site's own endpoints: build assets, the API routes,
 * the embedded services, the 3D decoders, the models (`/3d-models`), the slice simulator, the
 * sitemap, robots.txt, the icon and the probes.
 * `/` (a redirect to a language) is left out by requiring one character after the slash.
 */
export const config = {
  matcher: [
    '/((?!_next/|api/|local/|3d-decoders/|3d-models|slice-simulator|sitemap\\.xml|sitemaps/|robots\\.txt|icon\\.svg|healthz|readyz).+)',
  ],
}
