import { describe, expect, it } from 'vitest'
import { createRouteIndex, type RouteIndex } from '@/lib/content/route-index'

// The proxy's view of which paths exist, over a stand-in repository whose content can be
// published (a new master ref) during the test.
function repository() {
  const repo = {
    ref: 'ref-1',
    paths: ['/en-us/about', '/fr-fr/a-propos', '/en-us/work/lumen-lamp', '/fr-fr/été'],
    loads: 0,
    refChecks: 0,
  }
  const source = {
    masterRef: async () => {
      repo.refChecks++
      return repo.ref
    },
    load: async (): Promise<RouteIndex> => {
      repo.loads++
      return {
        ref: repo.ref,
        langs: ['en-us', 'fr-fr'],
        master: 'en-us',
        paths: new Set(repo.paths),
      }
    },
  }
  return { repo, source }
}

describe('the route index', () => {
  it('finds every document path and each language root', async () => {
    const { source } = repository()
    const index = createRouteIndex(source)
    for (const path of [
      '/en-us',
      '/fr-fr/',
      '/en-us/about',
      '/en-us/work/lumen-lamp/',
      // As the request line carries it.
      '/fr-fr/%C3%A9t%C3%A9',
    ])
      expect(await index.resolve(path), path).toEqual({ found: true })
  })

  it('answers an unknown uid or path in its language, an unknown language in the master', async () => {
    const { source } = repository()
    const index = createRouteIndex(source)
    expect(await index.resolve('/fr-fr/nope')).toEqual({ found: false, lang: 'fr-fr' })
    expect(await index.resolve('/en-us/work/nope')).toEqual({ found: false, lang: 'en-us' })
    expect(await index.resolve('/en-us/about/deeper')).toEqual({ found: false, lang: 'en-us' })
    expect(await index.resolve('/xx-yy/about')).toEqual({ found: false, lang: 'en-us' })
  })

  it('reads the repository once, then again only when the master ref changes', async () => {
    let clock = 0
    const { repo, source } = repository()
    const index = createRouteIndex(source, {
      recheckMs: 30_000,
      unknownRecheckMs: 1_000,
      now: () => clock,
    })
    for (let i = 0; i < 5; i++) await index.resolve('/en-us/about')
    expect(repo.loads).toBe(1)
    expect(repo.refChecks).toBe(0)
    // Published a moment ago: found once the ref check allows, not before.
    repo.paths.push('/en-us/new-page')
    repo.ref = 'ref-2'
    expect(await index.resolve('/en-us/new-page')).toEqual({ found: false, lang: 'en-us' })
    clock = 1_000
    expect(await index.resolve('/en-us/new-page')).toEqual({ found: true })
    expect(repo.loads).toBe(2)
    // An unknown path with an unchanged ref costs one ref check, not a reload.
    clock = 2_000
    expect(await index.resolve('/en-us/still-nothing')).toEqual({ found: false, lang: 'en-us' })
    expect(repo.loads).toBe(2)
  })
})
