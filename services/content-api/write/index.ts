import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { Hono } from 'hono'
import { writeJsonAtomic } from './files'
import { createAssetApi } from './assets'
import { createCustomTypesApi } from './custom-types'
import type { ContentStore } from '../store'
import { createMigrationApi, createReleaseView } from './migration'

/**
 * The writable repository: stand-ins for Prismic's three write APIs, each under its own path of
 * the content API's origin, so a client finds all of them from the Content API URL alone
 * (`http://127.0.0.1:N/api/v2` → `http://127.0.0.1:N/migration`, `/asset-api`, `/customtypes-api`).
 * See docs/prismic-write-apis.md.
 */

export type WriteApiOptions = {
  /** The only write token accepted; any non-empty Bearer token when unset. */
  writeToken?: string
  /** Publish the migration release as soon as every document in it has its data. */
  publishMigrations?: boolean
}

/** The paths of the write stand-ins under the content API's origin. */
export const WRITE_API_PATHS = {
  migration: '/migration',
  asset: '/asset-api',
  customTypes: '/customtypes-api',
} as const

/** The write stand-ins, and the migration release as the Content API serves it. */
export type WriteApp = {
  app: Hono
  /** The migration release's ref (`isMasterRef: false`), while the release has documents. */
  refs: () => { id: string; ref: string; label: string; isMasterRef: false }[]
  /** The store to search for `ref` when it is the migration release's. */
  storeFor: (ref: string | undefined) => ContentStore | undefined
}

/** Mounts the three stand-ins over `contentDir` (documents, media) and `modelsDir` (models). */
export function createWriteApp(
  options: WriteApiOptions & { contentDir: string; modelsDir: string; changed: () => void },
): WriteApp {
  const app = new Hono()
  app.route(WRITE_API_PATHS.migration, createMigrationApi(options))
  app.route(WRITE_API_PATHS.asset, createAssetApi(options))
  app.route(WRITE_API_PATHS.customTypes, createCustomTypesApi(options))
  const release = createReleaseView(options.contentDir)
  return {
    app,
    refs: () => {
      const store = release()
      return store
        ? [
            {
              id: 'migration-release',
              ref: store.ref,
              label: 'Migration release',
              isMasterRef: false,
            },
          ]
        : []
    },
    storeFor: (ref) => {
      const store = ref ? release() : undefined
      return store?.ref === ref ? store : undefined
    },
  }
}

/**
 * Makes `dir` a repository the content API can serve: an empty folder lacks the documents folder
 * the loader needs and the languages a Prismic repository is created with (the first is the
 * master), which go into `repository.json`. A folder that has documents is left as it is.
 */
export function initWritableRepository(dir: string, languages: string[]): void {
  mkdirSync(path.join(dir, 'documents'), { recursive: true })
  const repositoryFile = path.join(dir, 'repository.json')
  if (existsSync(repositoryFile) || readdirSync(path.join(dir, 'documents')).length > 0) return
  writeJsonAtomic(repositoryFile, {
    languages: languages.map((id, i) => ({ id: id.trim(), ...(i === 0 ? { master: true } : {}) })),
  })
}
