import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { writeJsonAtomic } from '../../services/content-api/write/files'

/**
 * What a push has already done to one repository, so that a push stopped halfway and run again
 * creates nothing twice: the remote id of every document and asset it created, and a hash of
 * what it last sent for each document. Kept in `.data/prismic-push/<repository>.json`, rewritten
 * atomically after every step.
 */
export type PushState = {
  /** `type/key/lang` → remote document id, and the hash of the data last sent (if sent). */
  documents: Record<string, { id: string; sent?: string }>
  /** media path → remote asset id. */
  assets: Record<string, string>
}

export function stateFileFor(repository: string): string {
  return path.join('.data', 'prismic-push', `${repository.replace(/[^A-Za-z0-9.-]+/g, '_')}.json`)
}

export function readState(file: string): PushState {
  if (!existsSync(file)) return { documents: {}, assets: {} }
  return JSON.parse(readFileSync(file, 'utf8')) as PushState
}

export function saveState(file: string, state: PushState): void {
  writeJsonAtomic(file, state)
}
