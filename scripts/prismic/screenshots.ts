import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { RepositoryEndpoints } from './endpoints'
import { PrismicSyncError } from './errors'

/**
 * Slice screenshots for `prismic:push`, sent as Slice Machine sends them when it pushes a slice
 * (@slicemachine/manager `SlicesManager#updateSliceModelScreenshotsInPlace` and
 * `ScreenshotsManager#uploadScreenshot`): each variation's `screenshot-<variation>.png` beside
 * the slice's model.json is uploaded through the ACL provider's presigned S3 POST under
 * `<repository>/shared-slices/<slice>/<variation>/<sha1>.png`, and its CDN URL (with
 * `?auto=compress,format`) becomes the variation's `imageUrl`. A screenshot the repository's
 * model already points at (its URL holds the file's SHA-1) is not uploaded again. See
 * services/content-api/write/screenshots.ts for the protocol.
 */

type Variation = { id: string; imageUrl?: string }
type SliceModel = { id: string; variations: Variation[] }
type Acl = { url: string; fields: Record<string, string>; imgixEndpoint: string }

export type ScreenshotUploader = {
  /** The model with each variation's `imageUrl` pointing at its uploaded screenshot. */
  withScreenshots: (
    model: SliceModel,
    modelFile: string,
    remote?: SliceModel,
  ) => Promise<SliceModel>
  uploaded: () => number
}

export function screenshotUploader(options: {
  endpoints: RepositoryEndpoints
  token: string
  fetch: typeof fetch
  dryRun?: boolean
}): ScreenshotUploader {
  const { endpoints, token } = options
  let acl: Promise<Acl> | undefined
  let count = 0

  const readAcl = async (): Promise<Acl> => {
    const url = new URL('create', endpoints.aclProvider)
    const response = await options.fetch(url, {
      headers: { Authorization: `Bearer ${token}`, Repository: endpoints.name },
    })
    const text = await response.text()
    if (!response.ok)
      throw new PrismicSyncError(
        `The screenshot upload (${url}) refused the token: ${response.status} ${text.slice(0, 200)}${endpoints.standalone ? '' : ". Prismic's ACL provider takes a Prismic user's token, as Slice Machine sends it: push screenshots from Slice Machine, or run with --no-screenshots"}`,
      )
    const json = JSON.parse(text) as {
      values?: { url?: string; fields?: Record<string, string> }
      imgixEndpoint?: string
    }
    if (!json.values?.url || !json.values.fields || !json.imgixEndpoint)
      throw new PrismicSyncError(
        `The screenshot upload (${url}) answered no presigned POST: ${text.slice(0, 200)}`,
      )
    return { url: json.values.url, fields: json.values.fields, imgixEndpoint: json.imgixEndpoint }
  }

  const upload = async (data: Buffer, key: string): Promise<string> => {
    acl ??= readAcl()
    const { url, fields, imgixEndpoint } = await acl
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.append(name, value)
    form.set('key', key)
    form.set('Content-Type', 'image/png')
    form.set('file', new Blob([new Uint8Array(data)], { type: 'image/png' }))
    const response = await options.fetch(url, { method: 'POST', body: form })
    if (!response.ok)
      throw new PrismicSyncError(
        `Uploading the screenshot ${key} failed: ${response.status} ${(await response.text()).slice(0, 200)}`,
      )
    count += 1
    const cdn = new URL(key, imgixEndpoint)
    cdn.searchParams.set('auto', 'compress,format')
    return cdn.toString()
  }

  return {
    uploaded: () => count,
    async withScreenshots(model, modelFile, remote) {
      // One upload at a time: the write APIs take about one request a second.
      const variations: Variation[] = []
      for (const variation of model.variations) {
        const file = path.join(path.dirname(modelFile), `screenshot-${variation.id}.png`)
        if (!existsSync(file)) {
          variations.push(variation)
          continue
        }
        const data = readFileSync(file)
        const digest = createHash('sha1').update(data).digest('hex')
        const there = remote?.variations.find((v) => v.id === variation.id)?.imageUrl
        if (there?.includes(digest)) variations.push({ ...variation, imageUrl: there })
        else if (options.dryRun)
          variations.push({ ...variation, imageUrl: `(screenshot ${digest})` })
        else {
          const key = [endpoints.name, 'shared-slices', model.id, variation.id, `${digest}.png`]
          variations.push({ ...variation, imageUrl: await upload(data, key.join('/')) })
        }
      }
      return { ...model, variations }
    },
  }
}
