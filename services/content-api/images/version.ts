import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'

/**
 * Media URLs carry a hash of the file's bytes, `v=…`, so a replaced file gets a new URL: the
 * media route then serves each URL as `immutable` (./media.ts), and a browser or CDN that kept the
 * old file never shows it for the new one. The image service ignores a parameter it does not
 * know, as imgix does (./params.ts), so the URL stays one the official helpers extend with sizes.
 * This is Facet's: on Prismic, a replaced image is a new upload, with a URL of its own.
 *
 * A hash of the bytes, not of the size and time: every node of a site, each with its own copy of
 * the content, names the same file by the same URL, so their pages agree and a CDN keeps one copy.
 */
export const VERSION_PARAM = 'v'

/** Hashes kept, by file and its size and time; read again only when the file changes. */
const MAX_HASHES = 5000
const hashes = new Map<string, string>()

/** 72 bits of SHA-256, base64url: 12 characters. */
function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 12)
}

/**
 * The content hash of `file`, or undefined when it is not a readable file. `stamp` (size and
 * mtime) may be given when the caller has already called stat.
 */
export function mediaHash(file: string, stamp?: string): string | undefined {
  let key = stamp
  if (key === undefined) {
    try {
      const info = statSync(file)
      if (!info.isFile()) return undefined
      key = `${info.size}-${Math.round(info.mtimeMs)}`
    } catch {
      return undefined
    }
  }
  const memo = `${file}\0${key}`
  const known = hashes.get(memo)
  if (known) return known
  let hash: string
  try {
    hash = digest(readFileSync(file))
  } catch {
    return undefined
  }
  if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value!)
  hashes.set(memo, hash)
  return hash
}

/**
 * `url` (a media URL, with or without a query) with `v=<hash>` added; `url` itself when there is
 * no hash (a missing file: its URL answers 404 either way).
 */
export function withVersion(url: string, hash: string | undefined): string {
  if (!hash) return url
  return `${url}${url.includes('?') ? '&' : '?'}${VERSION_PARAM}=${hash}`
}
