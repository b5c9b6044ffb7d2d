import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Hono } from 'hono'
import { requireWriteToken, type Refuse } from './auth'
import { writeFileAtomic } from './files'

/**
 * Stand-in for where slice screenshots go when models are pushed: Prismic's ACL provider and the
 * S3 bucket it signs uploads for, then the image CDN that serves them. There is no public
 * reference; the protocol is Slice Machine's own client (@slicemachine/manager,
 * `ScreenshotsManager#initS3ACL` and `#uploadScreenshot`, and `SlicesManager#pushSlice`):
 *
 * 1. `GET <acl-provider>/create` with `Authorization: Bearer <token>` and `Repository: <name>`
 *    answers `{ values: { url, fields }, imgixEndpoint }`, an S3 presigned POST.
 * 2. The client POSTs `multipart/form-data` to `values.url`: every field of `fields`, then `key`
 *    (`<repository>/shared-slices/<slice>/<variation>/<sha1 of the file>.png`), `Content-Type`
 *    and `file`. S3 answers 204 with no body (its default `success_action_status`), and 403
 *    when the policy or its signature does not hold.
 * 3. The screenshot's URL is `new URL(key, imgixEndpoint)` with `?auto=compress,format`; it goes
 *    into the variation's `imageUrl` in the model sent to the Custom Types API. A screenshot whose
 *    SHA-1 the remote `imageUrl` already contains is not uploaded again.
 *
 * Here the ACL provider is `<origin>/acl-provider/`, the bucket `<origin>/slice-screenshots/upload`
 * and the CDN `<origin>/slice-screenshots/<key>`, which serves the file as uploaded (the query is
 * ignored: no image service in between). Files are kept in `<content>/.slice-screenshots/<key>`,
 * out of the media library. The policy is ours: it names the repository as the key's prefix and
 * expires after an hour, signed with a key made at start.
 */

export const SCREENSHOT_PATHS = { aclProvider: '/acl-provider', bucket: '/slice-screenshots' }

const refuse: Refuse = (c, why, message) => {
  if (why === 'missing-repository') return c.json({ error: message }, 400)
  return c.json({ error: message }, 401)
}

type Policy = { expiration: string; prefix: string }

/** The ACL provider and bucket stand-ins, storing under `contentDir/.slice-screenshots`. */
export function createScreenshotApis(options: { contentDir: string; writeToken?: string }): {
  aclProvider: Hono
  bucket: Hono
} {
  const dir = path.join(options.contentDir, '.slice-screenshots')
  const secret = randomBytes(32)
  const sign = (policy: string) => createHmac('sha256', secret).update(policy).digest('hex')

  const aclProvider = new Hono()
  aclProvider.use('*', requireWriteToken({ writeToken: options.writeToken, refuse }))
  aclProvider.get('/create', (c) => {
    const origin = new URL(c.req.url).origin
    const repository = c.req.header('repository')!
    const policy: Policy = {
      expiration: new Date(Date.now() + 3600_000).toISOString(),
      prefix: `${repository}/`,
    }
    const encoded = Buffer.from(JSON.stringify(policy)).toString('base64')
    return c.json({
      values: {
        url: `${origin}${SCREENSHOT_PATHS.bucket}/upload`,
        fields: { Policy: encoded, 'X-Amz-Signature': sign(encoded) },
      },
      imgixEndpoint: `${origin}${SCREENSHOT_PATHS.bucket}/`,
    })
  })

  const bucket = new Hono()
  bucket.post('/upload', async (c) => {
    let form: FormData
    try {
      form = await c.req.formData()
    } catch {
      return c.text('The body is not multipart/form-data.', 400)
    }
    const encoded = form.get('Policy')
    const signature = form.get('X-Amz-Signature')
    if (typeof encoded !== 'string' || typeof signature !== 'string')
      return c.text('AccessDenied: the Policy and X-Amz-Signature fields are required.', 403)
    const expected = Buffer.from(sign(encoded))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return c.text('AccessDenied: the policy signature does not match.', 403)
    const policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Policy
    if (Date.parse(policy.expiration) < Date.now())
      return c.text('AccessDenied: the policy has expired.', 403)
    const key = form.get('key')
    const file = form.get('file')
    if (typeof key !== 'string' || !key.startsWith(policy.prefix) || !safeKey(key))
      return c.text(`AccessDenied: the key must start with ${policy.prefix}.`, 403)
    if (!(file instanceof Blob)) return c.text('The "file" field is required.', 400)
    const target = path.join(dir, ...key.split('/'))
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileAtomic(target, Buffer.from(await file.arrayBuffer()))
    return c.body(null, 204)
  })
  bucket.get('/*', (c) => {
    const marker = `${SCREENSHOT_PATHS.bucket}/`
    const key = decodeURIComponent(c.req.path.slice(c.req.path.indexOf(marker) + marker.length))
    const file = path.join(dir, ...key.split('/'))
    if (!safeKey(key) || !existsSync(file)) return c.body(null, 404)
    const type = key.endsWith('.png')
      ? 'image/png'
      : key.endsWith('.jpg')
        ? 'image/jpeg'
        : 'application/octet-stream'
    return c.body(readFileSync(file), 200, {
      'Content-Type': type,
      // Keys carry the file's digest: a changed screenshot has a new URL.
      'Cache-Control': 'public, max-age=31536000, immutable',
    })
  })
  return { aclProvider, bucket }
}

/** A key of path segments, none empty or a dot segment. */
function safeKey(key: string): boolean {
  return key
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'))
}
