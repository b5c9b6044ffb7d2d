import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildFixture } from '../fixtures/content-builder'
import { serveContentApi } from './helpers'

/**
 * Content older than its models, and the empty shapes the client's types allow, as the official
 * client sees them: served (Prismic keeps serving such documents until they are republished),
 * reported as warnings on the console and at `/warnings`, and still refused by `content:check`.
 */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const sink = 'documents/article/kitchen-sink/en-us.json'
type Json = Record<string, unknown>

function folder(change: (data: Json) => void): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-stale-'))
  dirs.push(dir)
  buildFixture(dir, { count: 6, seed: 21 })
  const file = path.join(dir, sink)
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { data: Json }
  change(doc.data)
  writeFileSync(file, JSON.stringify(doc))
  return dir
}

function contentCheck(dir: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'services/content-api/check-cli.ts', '--content', dir],
    { encoding: 'utf8' },
  )
}

describe('content older than its models', () => {
  it('serves fields the model lacks as stored and fields the document lacks as empty, with warnings', async () => {
    const dir = folder((data) => {
      data.subtitle = 'A field removed from the model'
      delete data.summary
      const slices = data.slices as { primary: Json }[]
      slices[1]!.primary.retired = 'A slice field removed from the model'
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const served = await serveContentApi({ contentDir: dir, modelsDir: dir })
    try {
      const client = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
      const doc = await client.getByUID('article', 'kitchen-sink')
      expect(doc.data.subtitle).toBe('A field removed from the model')
      expect(doc.data.summary).toBeNull()
      expect(doc.data.slices[1].primary.retired).toBe('A slice field removed from the model')
      expect(doc.data.slices[1].primary.text).toBe('Seen')

      const printed = warn.mock.calls.flat().join('\n')
      expect(printed).toContain(`${sink} $.data.subtitle: is not a field of type article`)
      expect(printed).toContain(`${sink} $.data.slices[1].primary.retired: is not a field`)

      const report = (await (await fetch(`${served.origin}/warnings`)).json()) as {
        ref: string
        warnings: { file: string; path: string; message: string }[]
      }
      expect(report.ref).toBe((await client.getMasterRef()).ref)
      expect(report.warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: sink, path: '$.data.subtitle', severity: 'warning' }),
          expect.objectContaining({ file: sink, path: '$.data.slices[1].primary.retired' }),
        ]),
      )
    } finally {
      warn.mockRestore()
      await served.close()
    }
    const check = contentCheck(dir)
    expect(check.status).toBe(1)
    expect(check.stderr).toContain(`${sink} $.data.subtitle: is not a field of type article`)
  }, 30_000)

  it('serves the null-shaped empty image and every other empty shape the client types allow, with no warning', async () => {
    const nullImage = {
      id: null,
      url: null,
      dimensions: null,
      alt: null,
      copyright: null,
      edit: null,
    }
    const dir = folder((data) => {
      data.cover = nullImage
      data.summary = ''
      data.website = { link_type: 'Any', text: 'Nothing yet' }
      data.location = {}
      data.video = {}
      data.rating = null
      data.gallery = []
      data.body = []
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const served = await serveContentApi({ contentDir: dir, modelsDir: dir })
    try {
      const client = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
      const doc = await client.getByUID('article', 'kitchen-sink')
      expect(doc.data.cover).toEqual(nullImage)
      expect(prismic.isFilled.image(doc.data.cover)).toBe(false)
      expect(prismic.isFilled.link(doc.data.website)).toBe(false)
      expect(prismic.isFilled.keyText(doc.data.summary)).toBe(false)
      const withCover = await client.get({ filters: [prismic.filter.has('my.article.cover')] })
      expect(withCover.results.map((d) => d.uid)).not.toContain('kitchen-sink')
      expect(warn.mock.calls.flat().join('\n')).not.toContain(dir)
      const report = (await (await fetch(`${served.origin}/warnings`)).json()) as {
        warnings: unknown[]
      }
      expect(report.warnings).toEqual([])
    } finally {
      warn.mockRestore()
      await served.close()
    }
    expect(contentCheck(dir).status).toBe(0)
  }, 30_000)
})
