import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { modelUrlFor, variantUrl } from '@/three/model-variant'

const PAGE = 'http://127.0.0.1:3217/en-us/showcase?debug3d'

describe("a model's variant URL", () => {
  it("asks the site's own origin for the tier's variant", () => {
    expect(
      variantUrl('http://127.0.0.1:3217/local/prismic/media/models/lamp.glb', 'low', PAGE),
    ).toBe('http://127.0.0.1:3217/local/prismic/media/models/lamp.glb?tier=low')
    // Relative to the page, as the HTML carries embedded media.
    expect(variantUrl('/local/prismic/media/models/lamp.glb', 'high', PAGE)).toBe(
      'http://127.0.0.1:3217/local/prismic/media/models/lamp.glb?tier=high',
    )
  })

  it('keeps the query as written and puts the tier last', () => {
    expect(variantUrl('/media/lamp.glb?v=Ab_9-x', 'low', PAGE)).toBe(
      'http://127.0.0.1:3217/media/lamp.glb?v=Ab_9-x&tier=low',
    )
    // A model on Prismic's CDN through the site's route: `src` stays encoded as it was.
    const src = encodeURIComponent('https://facet.cdn.prismic.io/facet/a b,c.glb?auto=compress')
    expect(variantUrl(`/3d-models?src=${src}`, 'high', PAGE)).toBe(
      `http://127.0.0.1:3217/3d-models?src=${src}&tier=high`,
    )
    expect(new URL(variantUrl(`/3d-models?src=${src}`, 'high', PAGE)).searchParams.get('src')).toBe(
      'https://facet.cdn.prismic.io/facet/a b,c.glb?auto=compress',
    )
  })

  it('replaces a tier the URL already names, and drops it for the original', () => {
    expect(variantUrl('/m.glb?tier=high&v=1', 'low', PAGE)).toBe(
      'http://127.0.0.1:3217/m.glb?v=1&tier=low',
    )
    expect(variantUrl('/m.glb?tier=high&v=1', null, PAGE)).toBe('http://127.0.0.1:3217/m.glb?v=1')
    expect(variantUrl('/m.glb?%74ier=high', null, PAGE)).toBe('http://127.0.0.1:3217/m.glb')
    expect(variantUrl('/m.glb', null, PAGE)).toBe('http://127.0.0.1:3217/m.glb')
    // A fragment stays.
    expect(variantUrl('/m.glb#part', 'low', PAGE)).toBe('http://127.0.0.1:3217/m.glb?tier=low#part')
  })

  it('leaves every other origin, scheme and unreadable URL as it is', () => {
    for (const url of [
      'https://facet.cdn.prismic.io/facet/lamp.glb',
      'http://127.0.0.1:3218/local/prismic/media/models/lamp.glb',
      'https://127.0.0.1:3217/m.glb',
      'http://localhost:3217/m.glb',
      'data:model/gltf-binary;base64,Z2xURg==',
      'blob:http://127.0.0.1:3217/0b7c5a8e-1f0e-4f5c-9d3a-2a1b5c6d7e8f',
      'http://[bad',
    ])
      for (const tier of ['low', 'high', null] as const)
        expect(variantUrl(url, tier, PAGE)).toBe(url)
    // No page URL to compare with: nothing is changed.
    expect(variantUrl('/m.glb', 'low', 'not a url')).toBe('/m.glb')
  })

  it('always names one tier, and the rest of the query unchanged (any query)', () => {
    const pair = fc
      .tuple(
        fc.oneof(fc.constantFrom('v', 'src', 'tier'), fc.stringMatching(/^[a-z0-9._~-]{1,8}$/)),
        fc.stringMatching(/^[a-zA-Z%0-9._~+-]{0,8}$/),
      )
      .map(([k, v]) => `${k}=${v}`)
    fc.assert(
      fc.property(
        fc.array(pair, { maxLength: 5 }),
        fc.constantFrom('low', 'high'),
        (pairs, tier) => {
          const kept = pairs.filter((p) => !/^tier=/.test(p))
          const url = `/models/x.glb${pairs.length ? `?${pairs.join('&')}` : ''}`
          const out = new URL(variantUrl(url, tier, PAGE))
          expect(out.searchParams.getAll('tier')).toEqual([tier])
          expect(out.search).toBe(`?${[...kept, `tier=${tier}`].join('&')}`)
        },
      ),
    )
  })
})

describe('which file the renderer fetches', () => {
  const url = 'http://127.0.0.1:3217/m.glb'
  it("is the measured tier's variant unless ?debug3d names another", () => {
    expect(modelUrlFor(url, 'tier', 'low', PAGE)).toBe(`${url}?tier=low`)
    expect(modelUrlFor(url, 'tier', 'high', PAGE)).toBe(`${url}?tier=high`)
    expect(modelUrlFor(url, 'high', 'low', PAGE)).toBe(`${url}?tier=high`)
    expect(modelUrlFor(url, 'low', 'high', PAGE)).toBe(`${url}?tier=low`)
    expect(modelUrlFor(url, 'original', 'low', PAGE)).toBe(url)
  })
})
