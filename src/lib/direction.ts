/**
 * A language's writing direction, for `<html dir>`: from the language alone, so a language added
 * in the CMS needs no code change.
 */

/** Scripts written right to left (ISO 15924 codes), for runtimes without Intl's text info. */
const RTL_SCRIPTS = new Set([
  'Adlm', // Adlam (Fulani)
  'Arab', // Arabic, Persian, Urdu, Pashto, Sindhi, Uyghur, Kurdish (Sorani)…
  'Hebr', // Hebrew, Yiddish
  'Mand', // Mandaic
  'Nkoo', // N'Ko
  'Rohg', // Hanifi Rohingya
  'Samr', // Samaritan
  'Syrc', // Syriac
  'Thaa', // Thaana (Dhivehi)
])

/**
 * Languages whose default script is one of those above, for runtimes whose `Intl.Locale` cannot
 * tell a language's likely script (no `maximize`, or small ICU data). Codes from CLDR's likely
 * subtags.
 */
const RTL_LANGUAGES = new Set([
  'ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'mzn', 'nqo', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi',
]) // prettier-ignore

type TextInfo = { direction?: 'ltr' | 'rtl' }
/** `getTextInfo()` (the current proposal) or the older `textInfo` getter (V8 before 2024). */
type LocaleWithTextInfo = Intl.Locale & { getTextInfo?: () => TextInfo; textInfo?: TextInfo }

/**
 * `rtl` for a language written right to left (`ar-ae`, `he-il`, `fa-ir`, `ur-pk`…), else `ltr`.
 * Intl's text info answers where the runtime has it, but its ICU data has gaps (Node 20 says
 * `ltr` for `dv-mv` and `ku-arab`), so a right-to-left script, explicit or likely, or a language
 * in the list above also makes it `rtl`.
 */
export function directionOf(lang: string): 'ltr' | 'rtl' {
  let locale: LocaleWithTextInfo
  try {
    locale = new Intl.Locale(lang) as LocaleWithTextInfo
  } catch {
    return 'ltr' // not a language tag: nothing to go on
  }
  const info = locale.getTextInfo?.() ?? locale.textInfo
  if (info?.direction === 'rtl') return 'rtl'
  const script = locale.script ?? locale.maximize?.().script
  if (script && RTL_SCRIPTS.has(script)) return 'rtl'
  return RTL_LANGUAGES.has(locale.language.toLowerCase()) ? 'rtl' : 'ltr'
}
