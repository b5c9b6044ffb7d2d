import { DEFAULT_LOOK } from '@rules/look'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { SliceZone } from '@prismicio/react'
import { describe, expect, it } from 'vitest'
import { ContentLink } from '@/components/ContentLink'
import { safeHref, sanitizeContent } from '@/lib/content/sanitize'
import { components } from '@/slices'
import {
  HOSTILE_EMBED_HTML,
  HOSTILE_URLS,
  dangerousMarkup,
  hostilize,
} from '../fixtures/hostile/corpus'
import { apiSliceMocks } from '../../scripts/slices/api-mocks'

/** Slices that query the content API themselves (async; the forms read `settings`): rendered by the e2e suite instead. */
const QUERYING = new Set(['post_list', 'project_grid', 'contact_form', 'newsletter'])

/** Every slice's mocks (in the Content API's shape), except the querying ones. */
export function sliceMocks(): { slice_type: string }[] {
  return apiSliceMocks().filter((slice) => !QUERYING.has(slice.slice_type))
}

export function renderSlices(slices: unknown[]): string {
  return renderToString(
    createElement(SliceZone, {
      slices: slices as never,
      components: components as never,
      context: { lang: 'en-us', title: 'Hostile', look: DEFAULT_LOOK },
    }),
  )
}

describe('safeHref', () => {
  it.each(HOSTILE_URLS)('refuses %j', (url) => {
    expect(safeHref(url)).toBeUndefined()
  })

  it.each([
    'https://example.com/a?b=c#d',
    'http://example.com',
    'mailto:studio@example.com',
    'tel:+15551234',
    '/en-us/about',
    '#main',
    '?page=2',
    'about/team',
    '//cdn.example.com/x',
  ])('keeps %j', (url) => {
    expect(safeHref(url)).toBe(url)
  })
})

describe('hostile CMS content', () => {
  it('the corpus really is dangerous when rendered unsanitised (the check can fail)', () => {
    const html = renderSlices(hostilize(sliceMocks()))
    expect(dangerousMarkup(html).length).toBeGreaterThan(0)
  })

  it('renders every slice with the corpus in every field and no dangerous markup survives', () => {
    for (let seed = 0; seed < HOSTILE_URLS.length; seed++) {
      const report = { neutralised: 0 }
      const html = renderSlices(sanitizeContent(hostilize(sliceMocks(), seed), report))
      expect(dangerousMarkup(html)).toEqual([])
      expect(html).not.toContain(HOSTILE_EMBED_HTML)
      expect(report.neutralised).toBeGreaterThan(0)
    }
  })

  it('ContentLink drops a dangerous link even when content skipped the client', () => {
    for (const url of HOSTILE_URLS) {
      const html = renderToString(
        <ContentLink field={{ link_type: 'Web', url } as never}>go</ContentLink>,
      )
      expect(html).toBe('<span>go</span>')
      expect(dangerousMarkup(html)).toEqual([])
    }
    expect(
      renderToString(
        <ContentLink field={{ link_type: 'Web', url: 'https://example.com' } as never}>
          go
        </ContentLink>,
      ),
    ).toContain('href="https://example.com"')
  })

  it('keeps a document link whose URL no route has resolved yet (null)', () => {
    const link = { link_type: 'Document', id: 'X', type: 'page', uid: 'about', url: null }
    expect(sanitizeContent({ link })).toEqual({ link })
  })

  it('keeps safe links and text as they were', () => {
    const mocks = sliceMocks()
    expect(sanitizeContent(mocks)).toEqual(mocks)
  })
})
