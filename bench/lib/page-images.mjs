// The images a phone loads from a page's HTML, for benches that visit pages as a phone does.

/**
 * The URL of each image of the page that a phone at 2× loads: from each `<img>`, the narrowest
 * `srcset` candidate at least 828 px wide, else the widest, else `src`.
 */
export function imagesOf(html) {
  return [...html.matchAll(/<img\b[^>]*>/g)].flatMap(([tag]) => {
    const attr = (name) =>
      tag.match(new RegExp(`\\s${name}="([^"]*)"`, 'i'))?.[1]?.replaceAll('&amp;', '&')
    const candidates = (attr('srcset') ?? '')
      .split(', ')
      .filter(Boolean)
      .map((c) => {
        const [url, width] = c.trim().split(/\s+/)
        return { url, width: Number.parseInt(width ?? '', 10) }
      })
    const wide = candidates.filter((c) => c.width >= 828).sort((a, b) => a.width - b.width)[0]
    const url = wide?.url ?? candidates.at(-1)?.url ?? attr('src')
    return url ? [url] : []
  })
}
