import { describe, expect, it } from 'vitest'
import { resolveRepository } from '../../scripts/prismic/endpoints'

describe('resolveRepository', () => {
  it("gives a repository name Prismic's hosts, as the official clients' defaults", () => {
    expect(resolveRepository('my-studio')).toMatchObject({
      name: 'my-studio',
      contentApi: 'https://my-studio.cdn.prismic.io/api/v2',
      migrationApi: 'https://migration.prismic.io',
      assetApi: 'https://asset-api.prismic.io',
      customTypesApi: 'https://customtypes.prismic.io',
      aclProvider: 'https://acl-provider.prismic.io/',
      standalone: false,
    })
  })

  it('reads a Prismic Content API URL as its repository name', () => {
    expect(resolveRepository('https://my-studio.cdn.prismic.io/api/v2').name).toBe('my-studio')
    expect(resolveRepository('https://my-studio.prismic.io/api/v2/').name).toBe('my-studio')
  })

  it('finds the write stand-ins under the origin of any other Content API URL', () => {
    expect(resolveRepository('http://127.0.0.1:4020/api/v2')).toEqual({
      name: 'local',
      contentApi: 'http://127.0.0.1:4020/api/v2',
      migrationApi: 'http://127.0.0.1:4020/migration',
      assetApi: 'http://127.0.0.1:4020/asset-api',
      customTypesApi: 'http://127.0.0.1:4020/customtypes-api',
      aclProvider: 'http://127.0.0.1:4020/acl-provider/',
      origin: 'http://127.0.0.1:4020',
      standalone: true,
    })
  })

  it('names --repository when the value is neither', () => {
    expect(() => resolveRepository(undefined)).toThrow(/--repository is required/)
    expect(() => resolveRepository('http://127.0.0.1:4020/')).toThrow(/ending in \/api\/v2/)
    expect(() => resolveRepository('My Studio')).toThrow(/neither a repository name nor a URL/)
  })
})
