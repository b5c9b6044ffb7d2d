import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { Hono } from 'hono'
import { writeJsonAtomic } from './files'
import { createAssetApi } from './assets'
import { createCustomTypesApi } from './custom-types'
import type { ContentStore, ReleaseInfo } from '../store'
import { createMigrationApi, createReleaseView } from './migration'
import { createScreenshotApis, SCREENSHOT_PATHS } from './screenshots'

/**
 * The writable repository: stand-ins for Prismic's three write APIs, each under its own path of
 * the content API's origin, so a client finds all of them from the Content API URL alone
 * (`http://127.0.0.1:N/api/v2` → `http://127.0.0.1:N/migration`, `/asset-api`, `/customtypes-api`),
 * and the ACL provider and bucket slice screenshots are uploaded through (`/acl-provider`,
 * `/slice-screenshots`: write/screenshots.ts).
 * See docs/prismic-write-apis.md.
 */

export type WriteApiOptions = {
  /** The only write token accepted; any non-empty Bearer token when unset. */
  writeToken?: string
  /** Publish the migration release as soon as every document in it has its data. */
  publishMigrations?: boolean
}

/** The migration release as the Content API lists it among the refs. */
export const MIGRATION_RELEASE: ReleaseInfo = {
  id: 'migration-release',
  label: 'Migration release',
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
  /** The migration release's documents, while it has any (served as a ref of its own). */
  release: () => ContentStore | undefined
}

/** Mounts the three stand-ins over `contentDir` (documents, media) and `modelsDir` (models). */
export function createWriteApp(
  options: WriteApiOptions & { contentDir: string; modelsDir: string; changed: () => void },
): WriteApp {
  const app = new Hono()
  app.route(WRITE_API_PATHS.migration, createMigrationApi(options))
  app.route(WRITE_API_PATHS.asset, createAssetApi(options))
  app.route(WRITE_API_PATHS.customTypes, createCustomTypesApi(options))
  // Slice screenshots, uploaded as Slice Machine uploads them before pushing a slice's model.
  const screenshots = createScreenshotApis(options)
  app.route(SCREENSHOT_PATHS.aclProvider, screenshots.aclProvider)
  app.route(SCREENSHOT_PATHS.bucket, screenshots.bucket)
  return { app, release: createReleaseView(options.contentDir) }
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
