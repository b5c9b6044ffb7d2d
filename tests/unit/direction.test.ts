import { afterEach, describe, expect, test, vi } from 'vitest'
import { directionOf } from '@/lib/direction'

const RTL = ['ar-ae', 'ar', 'he-il', 'fa-ir', 'ur-pk', 'ps-af', 'ckb-iq', 'yi', 'dv-mv', 'ku-arab']
const LTR = ['en-us', 'fr-fr', 'de-de', 'ja-jp', 'zh-cn', 'tr-tr', 'ku-tr', 'az-latn-az', 'x']

afterEach(() => vi.unstubAllGlobals())

/** Intl.Locale as a runtime without some of its features has it. */
function withoutLocaleFeatures(...missing: ('textInfo' | 'maximize')[]) {
  const hidden = new Set<PropertyKey>(['textInfo', 'getTextInfo', ...missing])
  const Locale = Intl.Locale
  function Limited(tag: string) {
    const locale = new Locale(tag)
    return new Proxy(locale, {
      get(target, key) {
        if (hidden.has(key)) return undefined
        const value: unknown = Reflect.get(target, key, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }
  vi.stubGlobal('Intl', { Locale: Limited as unknown as typeof Intl.Locale })
}

describe('directionOf', () => {
  test.each(RTL)('%s is written right to left', (lang) => expect(directionOf(lang)).toBe('rtl'))
  test.each(LTR)('%s is written left to right', (lang) => expect(directionOf(lang)).toBe('ltr'))

  test('without Intl text info, the likely script decides', () => {
    withoutLocaleFeatures('textInfo')
    expect(RTL.map(directionOf)).toEqual(RTL.map(() => 'rtl'))
    expect(LTR.map(directionOf)).toEqual(LTR.map(() => 'ltr'))
  })

  test('without text info or likely scripts, the list of right-to-left languages decides', () => {
    withoutLocaleFeatures('textInfo', 'maximize')
    expect(RTL.map(directionOf)).toEqual(RTL.map(() => 'rtl'))
    expect(['en-us', 'fr-fr', 'ja-jp', 'ku-tr'].map(directionOf)).toEqual([
      'ltr',
      'ltr',
      'ltr',
      'ltr',
    ])
  })

  test('a string that is no language tag is left to right', () => {
    expect(directionOf('not a tag!')).toBe('ltr')
  })
})
