import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * File helpers shared by the write stand-ins. Every write goes to a temporary file beside its
 * target and is renamed over it: a reader (the content API's loader, `content:check`) sees the
 * old file or the new one, never half of one.
 */

/** Writes `bytes` to `file` atomically (temporary file in the same folder, then rename). */
export function writeFileAtomic(file: string, bytes: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true })
  // A dot name keeps the temporary file out of the loader's listing (it skips dot files).
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  )
  writeFileSync(temp, bytes)
  renameSync(temp, file)
}

/** Writes `value` as pretty JSON (two spaces, final newline, as the content folder's files are). */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** Reads a JSON file, or `fallback` when it does not exist. */
export function readJsonOr<T>(file: string, fallback: T): T {
  if (!existsSync(file)) return fallback
  return JSON.parse(readFileSync(file, 'utf8')) as T
}

/** Every file under `dir`, as the loader lists them (it skips dot names). */
export { listFiles } from '../store'
