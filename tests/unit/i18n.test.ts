import { describe, expect, it } from 'vitest'
import { negotiateLanguage } from '@/lib/i18n'

const langs = ['en-us', 'fr-fr']

describe('negotiateLanguage', () => {
  it('falls back to the master language without a header', () => {
    expect(negotiateLanguage(null, langs, 'en-us')).toBe('en-us')
  })
  it('matches a language exactly, ignoring case', () => {
    expect(negotiateLanguage('fr-FR', langs, 'en-us')).toBe('fr-fr')
  })
  it('matches on the primary subtag', () => {
    expect(negotiateLanguage('fr-CA,fr;q=0.9', langs, 'en-us')).toBe('fr-fr')
  })
  it('follows quality values, not header order', () => {
    expect(negotiateLanguage('en;q=0.4, fr;q=0.8', langs, 'en-us')).toBe('fr-fr')
  })
  it('skips languages the site does not have, and q=0', () => {
    expect(negotiateLanguage('de-DE, fr;q=0', langs, 'en-us')).toBe('en-us')
  })
})
