import { cookies, draftMode } from 'next/headers'
import { redirect } from 'next/navigation'
import type { NextRequest } from 'next/server'
import { cookie } from '@prismicio/client'
import { getConfig } from '@/lib/config'
import { sameSitePath } from '@/lib/content/same-site'
import { createClient } from '@/prismicio'

/**
 * Starts a Prismic preview and opens the previewed document. It does what @prismicio/next's
 * `redirectToPreviewURL` does, plus one check: the target must be a path on this site, so the
 * route cannot be used to send visitors elsewhere.
 */
export async function GET(request: NextRequest): Promise<never> {
  const documentID = request.nextUrl.searchParams.get('documentId') ?? undefined
  const previewToken = request.nextUrl.searchParams.get('token') ?? undefined
  const client = createClient()
  const url = await client
    .resolvePreviewURL({ documentID, previewToken, defaultURL: '/' })
    .catch(() => '/')
  if (previewToken) (await cookies()).set(cookie.preview, previewToken)
  ;(await draftMode()).enable()
  redirect(sameSitePath(url, getConfig().siteUrl) ?? '/')
}

export const dynamic = 'force-dynamic'
