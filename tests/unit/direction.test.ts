import { afterEach, describe, expect, test, vi } from 'vitest'
import { directionOf } from '@/lib/direction'

const RTL = ['ar-ae', 'ar', 'he-il', 'fa-ir', 'ur-pk', 'ps-af', 'ckb-iq', 'yi', 'dv-mv', 'ku-arab']
const LTR = ['en-us', 'fr-fr', 'de-de', 'ja-jp', 'zh-cn', 'tr-tr', 'ku-tr', 'az-latn-az', 'x']

afterEach(() => vi.unstubAllGlobals())

/** Intl.Locale as a runtime without some of its features has it. */
function withoutLocaleFeatures(...missing: ('textInfo' | 'maximize')[]) {
  class Limited extends Intl.Locale {
    get textInfo() {
      return undefined
    }
    get getTextInfo() {
      return undefined
    }
    get maximize() {
      return (missing.includes('maximize') ? undefined : super.maximize) as never
    }
  }
  vi.stubGlobal('Intl', { ...Intl, Locale: Limited })
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
