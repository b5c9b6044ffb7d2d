import type { Metadata } from 'next'
import { asText, isFilled, type ImageField, type PrismicDocument } from '@prismicio/client'
import { getConfig } from '@/lib/config'
import { getAlternateUrls } from './alternates'
import { getSettings } from './queries'

type SeoFields = {
  meta_title?: string | null
  meta_description?: string | null
  meta_image?: ImageField
}

/** An absolute URL on this site, from `SITE_URL`. */
export function absoluteUrl(pathOrUrl: string): string {
  return new URL(pathOrUrl, `${getConfig().siteUrl}/`).toString()
}

/**
 * A page's metadata from its document's SEO fields, falling back to its title and image, then to
 * the settings: title, description, canonical URL (from `SITE_URL`), hreflang alternates, Open
 * Graph and Twitter cards.
 */
export async function documentMetadata(
  lang: string,
  doc: (PrismicDocument & { data: SeoFields }) | undefined,
  options: {
    title?: string | null
    description?: string | null
    image?: ImageField
    type?: 'website' | 'article'
    /** The path when the page is not the document's own URL (e.g. a later index page). */
    path?: string
  } = {},
): Promise<Metadata> {
  const settings = await getSettings(lang)
  const siteName = settings.data.site_name || ''
  const title = doc?.data.meta_title || options.title || siteName
  const description =
    doc?.data.meta_description || options.description || settings.data.site_description || ''
  const image = [doc?.data.meta_image, options.image, settings.data.og_image].find(
    (field): field is ImageField<never, 'filled'> => isFilled.image(field),
  )
  const urls = await getAlternateUrls(doc)
  const path = options.path ?? doc?.url ?? `/${lang}`
  const languages = Object.fromEntries(
    Object.entries(urls).map(([code, url]) => [code, absoluteUrl(url)]),
  )
  const images = image
    ? [
        {
          url: image.url,
          width: image.dimensions.width,
          height: image.dimensions.height,
          alt: image.alt ?? '',
        },
      ]
    : undefined
  return {
    // An editor's meta title is used as written; a plain title gets the site's name after it.
    title: doc?.data.meta_title || title === siteName ? { absolute: title } : title,
    description,
    alternates: { canonical: absoluteUrl(path), languages },
    openGraph: {
      title,
      description,
      url: absoluteUrl(path),
      siteName,
      locale: lang.replace(/-(\w+)$/, (_, region: string) => `_${region.toUpperCase()}`),
      type: options.type ?? 'website',
      images,
    },
    twitter: { card: image ? 'summary_large_image' : 'summary', title, description, images },
  }
}

/** The site's Organization, as JSON-LD. */
export async function organizationJsonLd(lang: string) {
  const settings = await getSettings(lang)
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: settings.data.site_name,
    description: settings.data.site_description,
    url: absoluteUrl(`/${lang}`),
    ...(settings.data.contact_email ? { email: settings.data.contact_email } : {}),
    ...(isFilled.image(settings.data.og_image) ? { logo: settings.data.og_image.url } : {}),
    sameAs: settings.data.social_links.flatMap((item) =>
      item.link && 'url' in item.link && item.link.url ? [item.link.url] : [],
    ),
  }
}

/** Plain text of a rich text field, for descriptions. */
export function plainText(field: Parameters<typeof asText>[0] | null | undefined): string {
  return field ? asText(field) : ''
}

/** Serialises JSON-LD for a `<script>`: `<` is escaped so no text can close the tag. */
export function jsonLdScript(data: unknown): { __html: string } {
  return { __html: JSON.stringify(data).replace(/</g, '\\u003c') }
}
