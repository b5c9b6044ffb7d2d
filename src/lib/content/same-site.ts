/**
 * The path of `url` when it is on this site (`siteUrl`'s origin), else undefined: previews only
 * ever redirect within the site.
 */
export function sameSitePath(url: string | null | undefined, siteUrl: string): string | undefined {
  if (!url) return undefined
  // Backslashes are read as slashes by browsers: "/\evil.com" would leave the site.
  if (url.includes('\\')) return undefined
  try {
    const origin = new URL(siteUrl).origin
    const target = new URL(url, `${origin}/`)
    if (target.origin !== origin) return undefined
    return `${target.pathname}${target.search}${target.hash}`
  } catch {
    return undefined
  }
}
