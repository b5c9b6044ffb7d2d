/**
 * The path of `url` when it is on this site, else undefined: previews only ever redirect within
 * the site. `site` is the site's URL, or the origins that count as this site (the first one
 * resolves relative URLs): `SITE_URL`'s and the one the request was addressed to.
 */
export function sameSitePath(
  url: string | null | undefined,
  site: string | readonly string[],
): string | undefined {
  if (!url) return undefined
  // Backslashes are read as slashes by browsers: "/\evil.com" would leave the site.
  if (url.includes('\\')) return undefined
  try {
    const origins = (typeof site === 'string' ? [site] : site).map((o) => new URL(o).origin)
    const target = new URL(url, `${origins[0]}/`)
    if (!origins.includes(target.origin)) return undefined
    return `${target.pathname}${target.search}${target.hash}`
  } catch {
    return undefined
  }
}
