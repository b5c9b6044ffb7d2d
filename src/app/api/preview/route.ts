import { cookies, draftMode } from 'next/headers'
import { redirect } from 'next/navigation'
import type { NextRequest } from 'next/server'
import { cookie } from '@prismicio/client'
import { getConfig } from '@/lib/config'
import { isPreviewToken, siteOrigins } from '@/lib/content/request-origin'
import { sameSitePath } from '@/lib/content/same-site'
import { contentEndpoint, createClient } from '@/prismicio'

/**
 * Starts a Prismic preview and opens the previewed document. It does what @prismicio/next's
 * `redirectToPreviewURL` does, plus two checks: the target must be a path on this site, so the
 * route cannot be used to send visitors elsewhere; and the draft cookies are set only for a
 * preview token on the repository's own host whose document the content API resolved, so a
 * forged link cannot put a visitor in draft mode or make the site fetch from elsewhere. In local
 * mode (the embedded API has no previews) no token is valid.
 */
export async function GET(request: NextRequest): Promise<never> {
  const documentID = request.nextUrl.searchParams.get('documentId') ?? undefined
  const previewToken = request.nextUrl.searchParams.get('token') ?? undefined
  const config = getConfig()
  let url = '/'
  if (
    config.content.mode === 'hosted' &&
    documentID &&
    previewToken &&
    isPreviewToken(previewToken, contentEndpoint())
  ) {
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

export const dynamic = 'force-dynamic'
