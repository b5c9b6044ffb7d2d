import { cookies, draftMode } from 'next/headers'
import { redirect } from 'next/navigation'
import type { NextRequest } from 'next/server'
import { cookie } from '@prismicio/client'
import { getConfig } from '@/lib/config'
import { EMBEDDED_BASE_PATH } from '@/lib/content/embedded'
import { isPreviewToken, siteOrigins } from '@/lib/content/request-origin'
import { sameSitePath } from '@/lib/content/same-site'
import { contentEndpoint, createClient } from '@/prismicio'

/**
 * Starts a Prismic preview and opens the previewed document. It does what @prismicio/next's
 * `redirectToPreviewURL` does, plus two checks: the target must be a path on this site, so the
 * route cannot be used to send visitors elsewhere; and the draft cookies are set only for a
 * preview token on the repository's own host whose document the content API resolved, so a
 * forged link cannot put a visitor in draft mode or make the site fetch from elsewhere. In local
 * mode the embedded API issues the tokens (one per release in `content/releases/`), on the
 * site's configured origin or the one the visitor came by.
 */
export async function GET(request: NextRequest): Promise<never> {
  const documentID = request.nextUrl.searchParams.get('documentId') ?? undefined
  const previewToken = request.nextUrl.searchParams.get('token') ?? undefined
  const config = getConfig()
  let url = '/'
  if (documentID && previewToken && isOwnPreviewToken(previewToken, request)) {
    const resolved = await createClient()
      .resolvePreviewURL({ documentID, previewToken, defaultURL: '' })
      .catch(() => '')
    if (resolved) {
      url = resolved
      ;(await cookies()).set(cookie.preview, previewToken)
      ;(await draftMode()).enable()
    }
  }
  redirect(sameSitePath(url, siteOrigins(request, config.siteUrl)) ?? '/')
}

function isOwnPreviewToken(token: string, request: NextRequest): boolean {
  if (isPreviewToken(token, contentEndpoint())) return true
  // The embedded API answers in-process, so a token on the origin the visitor came by (its Host
  // header) cannot make the site fetch from anywhere else.
  const host = request.headers.get('host') ?? request.nextUrl.host
  return (
    getConfig().content.mode === 'local' &&
    isPreviewToken(token, `${request.nextUrl.protocol}//${host}${EMBEDDED_BASE_PATH}/api/v2`)
  )
}

export const dynamic = 'force-dynamic'
