/**
 * Fills `{name}` placeholders in a CMS text: "Page {page} of {total}". The text comes from the
 * CMS; only the values come from code.
 */
export function fillTemplate(
  template: string | null | undefined,
  values: Record<string, string | number>,
): string {
  return (template ?? '').replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  )
}

/** A date field as a long, localised date: "12 October 2026". */
export function formatDate(date: string | null | undefined, lang: string): string {
  if (!date) return ''
  const parsed = new Date(`${date.slice(0, 10)}T12:00:00Z`)
  if (Number.isNaN(parsed.getTime())) return ''
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(parsed)
}
