/**
 * Where a repository's four APIs are, from `--repository NAME_OR_URL`. A name is a Prismic
 * repository: its Content API at `https://NAME.cdn.prismic.io/api/v2` and the write APIs at
 * Prismic's hosts (the official clients' defaults). A URL ending in `/api/v2` on another host is
 * a Prismic-compatible API such as Facet's standalone content API, whose write stand-ins sit
 * under the same origin (docs/prismic-write-apis.md).
 */
export type RepositoryEndpoints = {
  /** The name sent in the write APIs' `repository` header. */
  name: string
  contentApi: string
  migrationApi: string
  assetApi: string
  customTypesApi: string
  /**
   * Where slice screenshots are uploaded from (Slice Machine's ACL provider: a presigned S3 POST,
   * services/content-api/write/screenshots.ts), with a trailing slash as Slice Machine has it.
   */
  aclProvider: string
  /** The origin of the Content API, under which a standalone API serves `/media/`. */
  origin: string
  /** True for Facet's standalone API (or any non-Prismic host). */
  standalone: boolean
}

/** Resolves a repository name or Content API URL; throws a sentence naming the flag when neither. */
export function resolveRepository(nameOrUrl: string | undefined): RepositoryEndpoints {
  if (!nameOrUrl)
    throw new Error(
      '--repository is required: a Prismic repository name or a URL ending in /api/v2.',
    )
  if (/^https?:\/\//.test(nameOrUrl)) {
    const url = new URL(nameOrUrl)
    if (!/\/api\/v2\/?$/.test(url.pathname))
      throw new Error(
        `--repository: a URL must be a Content API endpoint ending in /api/v2, got ${nameOrUrl}`,
      )
    const prismic = url.hostname.match(/^([a-z0-9-]+)(\.cdn)?\.prismic\.io$/)
    if (prismic) return resolveRepository(prismic[1])
    const origin = url.origin
    return {
      name: 'local',
      contentApi: `${origin}${url.pathname.replace(/\/$/, '')}`,
      migrationApi: `${origin}/migration`,
      assetApi: `${origin}/asset-api`,
      customTypesApi: `${origin}/customtypes-api`,
      aclProvider: `${origin}/acl-provider/`,
      origin,
      standalone: true,
    }
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(nameOrUrl))
    throw new Error(`--repository: "${nameOrUrl}" is neither a repository name nor a URL.`)
  return {
    name: nameOrUrl,
    contentApi: `https://${nameOrUrl}.cdn.prismic.io/api/v2`,
    // The official clients' defaults (WriteClient, custom-types-client); passed explicitly so one
    // code path serves both kinds of repository.
    migrationApi: 'https://migration.prismic.io',
    assetApi: 'https://asset-api.prismic.io',
    customTypesApi: 'https://customtypes.prismic.io',
    // @slicemachine/manager's API_ENDPOINTS (production).
    aclProvider: 'https://acl-provider.prismic.io/',
    origin: `https://${nameOrUrl}.cdn.prismic.io`,
    standalone: false,
  }
}
