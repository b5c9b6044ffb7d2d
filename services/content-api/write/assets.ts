import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import { imageSize } from 'image-size'
import { stableId } from '../store'
import { limitWrites, requireWriteToken, type Refuse } from './auth'
import { listFiles, readJsonOr, writeFileAtomic, writeJsonAtomic } from './files'

/**
 * Stand-in for Prismic's Asset API (https://prismic.io/docs/asset-api-technical-reference), served
 * under `<origin>/asset-api/` (the write client's `assetAPIEndpoint`). The media library is the
 * content folder's `media/`: an uploaded file becomes `media/<filename>`, and an asset's id is the
 * id the content API already gives that file (`stableId("media:<path>")`), so images in served
 * documents and assets in the library agree. Notes, credits, alt and tags live in
 * `.assets.json` beside `media/`, out of what `/media/` serves (and a dot file, which the
 * content loader skips).
 */

/** An asset as the Asset API returns it (`Asset` in @prismicio/client's types/api/asset). */
export type PrismicAsset = {
  id: string
  url: string
  created_at: number
  last_modified: number
  filename: string
  extension: string
  size: number
  kind: 'image' | 'audio' | 'video' | 'document'
  width?: number
  height?: number
  notes?: string
  credits?: string
  alt?: string
  tags: PrismicAssetTag[]
}

export type PrismicAssetTag = {
  id: string
  name: string
  created_at: number
  last_modified: number
}

type AssetMeta = {
  notes?: string
  credits?: string
  alt?: string
  tags?: string[]
  created_at?: number
}
type MetaFile = { assets: Record<string, AssetMeta>; tags: PrismicAssetTag[] }

/** The media path of every asset id, for the Migration API's id → file resolution. */
export function assetPaths(contentDir: string): Map<string, string> {
  return new Map(
    listFiles(path.join(contentDir, 'media')).map((rel) => [stableId(`media:${rel}`), rel]),
  )
}

/**
 * The Asset API's errors carry `{ error }` (the official client reads `json.error` in
 * #handleAssetAPIError and maps 401/403, 404 and 400 to its error classes).
 */
const refuse: Refuse = (c, why, message) =>
  c.json(
    { error: message },
    why === 'missing-repository' ? 400 : why === 'rate-limited' ? 429 : 401,
  )

const KINDS: Record<string, PrismicAsset['kind']> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
  svg: 'image',
  mp4: 'video',
  webm: 'video',
  mp3: 'audio',
  wav: 'audio',
}

/** Creates the Asset API stand-in over `contentDir/media`. */
export function createAssetApi(options: {
  contentDir: string
  writeToken?: string
  changed: () => void
}): Hono {
  const mediaDir = path.join(options.contentDir, 'media')
  const metaFile = path.join(options.contentDir, '.assets.json')
  const readMeta = () => readJsonOr<MetaFile>(metaFile, { assets: {}, tags: [] })

  const toAsset = (c: Context, rel: string, meta: MetaFile): PrismicAsset => {
    const id = stableId(`media:${rel}`)
    const file = path.join(mediaDir, rel)
    const stat = statSync(file)
    const extension = path.extname(rel).slice(1).toLowerCase()
    const kind = KINDS[extension] ?? 'document'
    const own = meta.assets[id] ?? {}
    let dims: { width?: number; height?: number } = {}
    if (kind === 'image') {
      try {
        dims = imageSize(readFileSync(file))
      } catch {
        // An image whose size cannot be read is still an asset; Prismic leaves the size out too.
      }
    }
    return {
      id,
      url: `${new URL(c.req.url).origin}/media/${rel.split('/').map(encodeURIComponent).join('/')}`,
      created_at: own.created_at ?? Math.floor(stat.mtimeMs),
      last_modified: Math.floor(stat.mtimeMs),
      filename: rel,
      extension,
      size: stat.size,
      kind,
      ...(dims.width ? { width: dims.width, height: dims.height } : {}),
      ...(own.notes ? { notes: own.notes } : {}),
      ...(own.credits ? { credits: own.credits } : {}),
      ...(own.alt ? { alt: own.alt } : {}),
      tags: (own.tags ?? [])
        .map((tagId) => meta.tags.find((t) => t.id === tagId))
        .filter((t): t is PrismicAssetTag => !!t),
    }
  }

  const app = new Hono()
  app.use('*', requireWriteToken({ writeToken: options.writeToken, refuse }))
  app.use('*', limitWrites(refuse))

  // GET /assets: `{ items, total, cursor }`, filtered by `assetType` and `keyword`, paged by
  // `limit` and `cursor` (the id after which to start), as the reference's GET method describes.
  app.get('/assets', (c) => {
    const meta = readMeta()
    const type = c.req.query('assetType') ?? 'all'
    const keyword = c.req.query('keyword')?.toLowerCase()
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 100) || 100, 1), 1000)
    let items = listFiles(mediaDir).map((rel) => toAsset(c, rel, meta))
    if (type !== 'all') items = items.filter((a) => a.kind === type)
    if (keyword)
      items = items.filter((a) =>
        [a.filename, a.notes, a.credits, a.alt].some((v) => v?.toLowerCase().includes(keyword)),
      )
    const cursor = c.req.query('cursor')
    const start = cursor ? items.findIndex((a) => a.id === cursor) + 1 : 0
    const page = items.slice(start, start + limit)
    return c.json({
      items: page,
      total: items.length,
      cursor: start + limit < items.length ? page.at(-1)?.id : undefined,
    })
  })

  // POST /assets: multipart form with `file`, and optional `notes`, `credits`, `alt`. The client
  // expects 200 with the asset (WriteClient#createAsset).
  app.post('/assets', async (c) => {
    let form: FormData
    try {
      form = await c.req.formData()
    } catch {
      return c.json({ error: 'Expected a multipart/form-data body with a "file" field.' }, 400)
    }
    const file = form.get('file')
    if (!file || typeof file === 'string')
      return c.json({ error: 'The "file" field is required and must be a file.' }, 400)
    const rel = safeName(file.name)
    if (!rel)
      return c.json({ error: `The file name "${file.name}" is not a valid asset name.` }, 400)
    const bytes = new Uint8Array(await file.arrayBuffer())
    const stored = placeFile(mediaDir, rel, bytes)
    const meta = readMeta()
    const id = stableId(`media:${stored}`)
    meta.assets[id] = {
      ...meta.assets[id],
      created_at: meta.assets[id]?.created_at ?? Date.now(),
      ...textFields(form),
    }
    writeJsonAtomic(metaFile, meta)
    options.changed()
    return c.json(toAsset(c, stored, meta), 200)
  })

  // PATCH /assets/:id: notes, credits, alt and tag ids (WriteClient#updateAsset).
  app.patch('/assets/:id', async (c) => {
    const rel = assetPaths(options.contentDir).get(c.req.param('id'))
    if (!rel) return c.json({ error: `Asset ${c.req.param('id')} not found.` }, 404)
    const body = await c.req.json<AssetMeta>().catch(() => undefined)
    if (!body || typeof body !== 'object') return c.json({ error: 'Expected a JSON body.' }, 400)
    const meta = readMeta()
    const id = c.req.param('id')
    const { notes, credits, alt, tags } = body
    meta.assets[id] = {
      ...meta.assets[id],
      ...(notes !== undefined ? { notes } : {}),
      ...(credits !== undefined ? { credits } : {}),
      ...(alt !== undefined ? { alt } : {}),
      ...(tags !== undefined ? { tags } : {}),
    }
    writeJsonAtomic(metaFile, meta)
    return c.json(toAsset(c, rel, meta), 200)
  })

  // GET /tags → `{ items }`; POST /tags `{ name }` → 201 with the tag (WriteClient#getAssetTags,
  // #createAssetTag). "Tags should be at least 3 characters long and 20 characters at most."
  app.get('/tags', (c) => c.json({ items: readMeta().tags }))
  app.post('/tags', async (c) => {
    const body = await c.req.json<{ name?: unknown }>().catch(() => undefined)
    const name = body?.name
    if (typeof name !== 'string' || name.length < 3 || name.length > 20)
      return c.json({ error: 'A tag name must be 3 to 20 characters long.' }, 400)
    const meta = readMeta()
    const now = Date.now()
    const tag = meta.tags.find((t) => t.name === name) ?? {
      id: stableId(`tag:${name}`),
      name,
      created_at: now,
      last_modified: now,
    }
    if (!meta.tags.includes(tag)) meta.tags.push(tag)
    writeJsonAtomic(metaFile, meta)
    return c.json(tag, 201)
  })

  return app
}

function textFields(form: FormData): AssetMeta {
  const out: AssetMeta = {}
  for (const key of ['notes', 'credits', 'alt'] as const) {
    const value = form.get(key)
    if (typeof value === 'string' && value) out[key] = value
  }
  return out
}

/** A relative media path from an upload's file name: no `..`, no leading slash, no dot names. */
function safeName(name: string): string | undefined {
  const parts = name.replaceAll('\\', '/').split('/').filter(Boolean)
  if (parts.length === 0 || parts.some((p) => p === '..' || p.startsWith('.'))) return undefined
  return parts.join('/')
}

/**
 * Stores `bytes` under `rel`, or returns the path already holding the same bytes. A different
 * file of the same name gets a short content hash in its name: Prismic keeps both uploads as
 * separate assets, and so do we. Identical bytes under the same name are one asset here
 * (Facet's choice: nothing a client reads can tell it from a second copy).
 */
function placeFile(mediaDir: string, rel: string, bytes: Uint8Array): string {
  const target = path.join(mediaDir, rel)
  if (existsSync(target) && readFileSync(target).equals(bytes)) return rel
  let stored = rel
  if (existsSync(target)) {
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8)
    const ext = path.extname(rel)
    stored = `${rel.slice(0, rel.length - ext.length)}-${hash}${ext}`
  }
  writeFileAtomic(path.join(mediaDir, stored), bytes)
  return stored
}
