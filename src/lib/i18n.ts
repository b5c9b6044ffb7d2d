/**
 * Picks the site language for an `Accept-Language` header. Written here rather than pulled in
 * (negotiator + intl-localematcher) because the site's languages are few, lower-case Prismic
 * codes (`en-us`, `fr-fr`), and a primary-subtag match is all that is needed.
 */
export function negotiateLanguage(
  header: string | null,
  available: string[],
  fallback: string,
): string {
  if (!header) return fallback
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const quality = q ? Number(q.slice(2)) : 1
      return {
        tag: tag.trim().toLowerCase(),
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      }
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)

  const lower = available.map((lang) => lang.toLowerCase())
  for (const { tag } of wanted) {
    if (tag === '*') return fallback
    const exact = lower.indexOf(tag)
    if (exact >= 0) return available[exact]!
    const primary = tag.split('-')[0]
    const partial = lower.findIndex((lang) => lang.split('-')[0] === primary)
    if (partial >= 0) return available[partial]!
  }
  return fallback
}
