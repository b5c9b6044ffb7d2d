import { negotiateLanguage } from '@/lib/i18n'
import { getLanguages } from '@/lib/content/languages'

/** `/` sends the visitor to the home page in their language (Accept-Language, else the master). */
export async function GET(request: Request): Promise<Response> {
  const { ids, master } = await getLanguages()
  const lang = negotiateLanguage(request.headers.get('accept-language'), ids, master)
  return new Response(null, {
    status: 307,
    headers: {
      Location: `/${lang}`,
      Vary: 'Accept-Language',
      'Cache-Control': 'private, no-store',
    },
  })
}

export const dynamic = 'force-dynamic'
