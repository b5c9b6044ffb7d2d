import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixture } from '../fixtures/content-builder'
import { serveContentApi, type Served } from './helpers'

/**
 * Watching sees every kind of change an editor or a script makes: edits in place, atomic saves by
 * rename (as editors and `sed -i` write), later edits of a file once replaced, deletions, and
 * new folders. Each step waits, with a bound, for the master ref to move, then reads the change.
 */

let dir: string
let served: Served
let client: prismic.Client<prismic.PrismicDocument>

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'facet-watch-kinds-'))
  buildFixture(dir, { count: 5, seed: 11 })
  served = await serveContentApi({ contentDir: dir, modelsDir: dir, watch: true })
  client = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
})

afterAll(async () => {
  await served?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const settingsFile = () => path.join(dir, 'documents/settings/settings/en-us.json')

async function repository(): Promise<prismic.Repository> {
  return (await (await fetch(served.endpoint)).json()) as prismic.Repository
}

/** Runs `change`, then polls (at most 200 times) until the master ref moves; returns the new ref. */
async function afterChange(change: () => void): Promise<string> {
  const before = (await repository()).refs[0]!.ref
  change()
  for (let i = 0; i < 200; i++) {
    const ref = (await repository()).refs[0]!.ref
    if (ref !== before) return ref
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the master ref stayed ${before} after the change`)
}

function siteName(name: string): string {
  const doc = JSON.parse(readFileSync(settingsFile(), 'utf8')) as { data: { site_name: string } }
  doc.data.site_name = name
  return JSON.stringify(doc)
}

const servedSiteName = async (ref: string) =>
  (await client.getSingle('settings', { ref })).data.site_name as string

describe('watching a content folder', () => {
  it('sees an edit in place', async () => {
    const ref = await afterChange(() => writeFileSync(settingsFile(), siteName('Edited in place')))
    expect(await servedSiteName(ref)).toBe('Edited in place')
  })

  it('reads again only the file that changed, not the folder', async () => {
    const documents = served.api.store().documents.length
    expect(documents).toBeGreaterThan(5)
    const ref = await afterChange(() => writeFileSync(settingsFile(), siteName('Read alone')))
    expect(await servedSiteName(ref)).toBe('Read alone')
    expect(served.api.store().documents.length).toBe(documents)
    expect(served.api.store().filesRead).toBe(1)
  })

  it('sees an atomic save by rename, and later edits of the replaced file', async () => {
    const saved = await afterChange(() => {
      const temporary = path.join(dir, 'documents/settings/settings/.en-us.json.tmp')
      writeFileSync(temporary, siteName('Saved by rename'))
      renameSync(temporary, settingsFile())
    })
    expect(await servedSiteName(saved)).toBe('Saved by rename')
    const edited = await afterChange(() =>
      writeFileSync(settingsFile(), siteName('Edited after the rename')),
    )
    expect(await servedSiteName(edited)).toBe('Edited after the rename')
  })

  it('sees sed -i, which writes a new file and renames it over the old one, twice over', async () => {
    const first = await afterChange(() =>
      execFileSync('sed', ['-i', 's/Edited after the rename/Changed by sed/', settingsFile()]),
    )
    expect(await servedSiteName(first)).toBe('Changed by sed')
    const second = await afterChange(() =>
      execFileSync('sed', ['-i', 's/Changed by sed/Changed by sed again/', settingsFile()]),
    )
    expect(await servedSiteName(second)).toBe('Changed by sed again')
  })

  it('sees a deleted document', async () => {
    const ref = await afterChange(() =>
      rmSync(path.join(dir, 'documents/article/article-00001'), { recursive: true }),
    )
    const error = await client.getByUID('article', 'article-00001', { ref }).catch((e) => e)
    expect(error).toBeInstanceOf(prismic.NotFoundError)
  })

  it('sees a new folder and the documents written into it', async () => {
    const ref = await afterChange(() => {
      mkdirSync(path.join(dir, 'documents/article/brand-new'))
      writeFileSync(
        path.join(dir, 'documents/article/brand-new/en-us.json'),
        JSON.stringify({ uid: 'brand-new', data: { summary: 'Written into a new folder' } }),
      )
    })
    expect((await client.getByUID('article', 'brand-new', { ref })).data.summary).toBe(
      'Written into a new folder',
    )
    const edited = await afterChange(() =>
      writeFileSync(
        path.join(dir, 'documents/article/brand-new/en-us.json'),
        JSON.stringify({ uid: 'brand-new', data: { summary: 'Edited in the new folder' } }),
      ),
    )
    expect((await client.getByUID('article', 'brand-new', { ref: edited })).data.summary).toBe(
      'Edited in the new folder',
    )
  })

  it('sees a new release folder, which becomes a ref', async () => {
    const file = path.join(dir, 'releases/summer/documents/settings/settings/en-us.json')
    let releaseRef: string | undefined
    for (let i = 0; i < 200 && !releaseRef; i++) {
      if (i === 0) {
        mkdirSync(path.dirname(file), { recursive: true })
        writeFileSync(file, siteName('Summer draft'))
      }
      releaseRef = (await repository()).refs.find((r) => r.id === 'summer')?.ref
      if (!releaseRef) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(releaseRef).toBeDefined()
    expect(await servedSiteName(releaseRef!)).toBe('Summer draft')
  })
})
