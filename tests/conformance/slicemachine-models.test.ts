import { createHash } from 'node:crypto'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { pushRepository } from '../../scripts/prismic/push'
import { checkSliceMocks } from '../../services/content-api/slice-mocks'
import { checkFolder } from '../../services/content-api/validate'
import { serveWritableRepository } from './prismic-write-helpers'

/**
 * The models' round trip through Slice Machine, driven through its own manager
 * (@slicemachine/manager, as its UI calls it) on a copy of the project: a save with no edit
 * changes no file, a field added as its editor adds it changes only that slice's files and the
 * types, passes content:check with the sample content, and prismic:push carries it, with the
 * slice screenshots, to the writable stand-in.
 */

const ROOT = process.cwd()
const LIBRARY = './src/slices'
const temps: string[] = []
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `facet-sm-${name}-`))
  temps.push(dir)
  return dir
}

/** A copy of what Slice Machine reads and writes, with node_modules linked. */
function projectCopy(): string {
  const dir = tempDir('project')
  for (const name of [
    'package.json',
    'tsconfig.json',
    'slicemachine.config.json',
    '.prismicrc',
    '.prettierrc.json',
    'prismicio-types.d.ts',
    'customtypes',
  ])
    cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true })
  cpSync(path.join(ROOT, 'src', 'slices'), path.join(dir, 'src', 'slices'), { recursive: true })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  return dir
}

/** Every file under `dir` (node_modules aside) with the SHA-1 of its bytes. */
function snapshot(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(path.join(dir, rel))) {
    if (name === 'node_modules') continue
    const file = path.join(rel, name)
    if (statSync(path.join(dir, file)).isDirectory()) Object.assign(out, snapshot(dir, file))
    else
      out[file] = createHash('sha1')
        .update(readFileSync(path.join(dir, file)))
        .digest('hex')
  }
  return out
}

function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter((name) => before[name] !== after[name]).sort()
}

type SliceModel = {
  id: string
  variations: { id: string; imageUrl: string; primary: Record<string, unknown> }[]
}
type Manager = {
  plugins: { initPlugins: () => Promise<void> }
  customTypes: {
    readCustomType: (args: { id: string }) => Promise<{ model: { id: string } }>
    updateCustomType: (args: { model: { id: string } }) => Promise<{ errors: unknown[] }>
  }
  slices: {
    readSlice: (args: { libraryID: string; sliceID: string }) => Promise<{ model: SliceModel }>
    updateSlice: (args: {
      libraryID: string
      model: SliceModel
      mocks?: unknown[]
    }) => Promise<{ errors: unknown[] }>
  }
}

async function manager(cwd: string): Promise<Manager> {
  // The CommonJS build: the ES one imports directories, which Node refuses.
  const { createSliceMachineManager } = createRequire(import.meta.url)('@slicemachine/manager')
  const m = createSliceMachineManager({ cwd }) as Manager
  await m.plugins.initPlugins()
  return m
}

/** A one-document content folder (pushes fast: the Migration API takes one write a second). */
function smallContent(): string {
  const dir = tempDir('content')
  const files: Record<string, unknown> = {
    'repository.json': { languages: [{ id: 'en-us', master: true }] },
    'documents/page/hello/en-us.json': { uid: 'hello', data: { title: 'Hello' } },
  }
  for (const [rel, value] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    writeFileSync(path.join(dir, rel), JSON.stringify(value))
  }
  return dir
}

describe('Slice Machine on the project', () => {
  it('saves every slice and custom type with no edit without changing any file', async () => {
    const dir = projectCopy()
    const sm = await manager(dir)
    const before = snapshot(dir)
    for (const name of readdirSync(path.join(dir, 'src', 'slices'))) {
      if (!name.match(/^[A-Z]/)) continue
      const { id: sliceID } = JSON.parse(
        readFileSync(path.join(dir, 'src', 'slices', name, 'model.json'), 'utf8'),
      )
      const { model } = await sm.slices.readSlice({ libraryID: LIBRARY, sliceID })
      const { errors } = await sm.slices.updateSlice({ libraryID: LIBRARY, model })
      expect(errors).toEqual([])
    }
    for (const id of readdirSync(path.join(dir, 'customtypes'))) {
      const { model } = await sm.customTypes.readCustomType({ id })
      expect((await sm.customTypes.updateCustomType({ model })).errors).toEqual([])
    }
    expect(changed(before, snapshot(dir))).toEqual([])
  }, 60_000)

  it('adds a field as its editor does: only that slice and the types change, content:check and prismic:push take it', async () => {
    const dir = projectCopy()
    const sm = await manager(dir)
    const before = snapshot(dir)
    const mocksFile = path.join(dir, 'src', 'slices', 'Faq', 'mocks.json')
    const mocksBefore = JSON.parse(readFileSync(mocksFile, 'utf8'))
    const { model } = await sm.slices.readSlice({ libraryID: LIBRARY, sliceID: 'faq' })
    // What the editor's "Add a field" → Key Text sends: the variation with one more field.
    model.variations[0]!.primary.kicker = {
      type: 'Text',
      config: { label: 'Kicker', placeholder: '' },
    }
    expect((await sm.slices.updateSlice({ libraryID: LIBRARY, model })).errors).toEqual([])

    expect(changed(before, snapshot(dir))).toEqual([
      'prismicio-types.d.ts',
      path.join('src', 'slices', 'Faq', 'mocks.json'),
      path.join('src', 'slices', 'Faq', 'model.json'),
    ])
    expect(readFileSync(path.join(dir, 'prismicio-types.d.ts'), 'utf8')).toContain('kicker:')
    // The mocks keep their sample text and gain the new field.
    const mocksAfter = JSON.parse(readFileSync(mocksFile, 'utf8'))
    const { kicker, ...kept } = mocksAfter[0].primary
    expect(kept).toEqual(mocksBefore[0].primary)
    expect(kicker).toMatchObject({ __TYPE__: 'FieldContent', type: 'Text' })

    // The sample content (which has no kicker yet) and the mocks check against the new model.
    expect(checkFolder(path.join(ROOT, 'content'), dir).problems).toEqual([])
    expect(checkSliceMocks(dir)).toEqual([])

    const repo = await serveWritableRepository({ writeToken: 'secret', languages: ['en-us'] })
    try {
      await pushRepository({
        repository: repo.endpoint,
        writeToken: 'secret',
        contentDir: smallContent(),
        modelsDir: dir,
        stateFile: path.join(tempDir('state'), 'state.json'),
        log: () => {},
      })
      const remote = JSON.parse(
        readFileSync(path.join(repo.dir, 'src', 'slices', 'faq', 'model.json'), 'utf8'),
      )
      expect(remote.variations[0].primary.kicker).toEqual({
        type: 'Text',
        config: { label: 'Kicker', placeholder: '' },
      })
    } finally {
      await repo.close()
    }
  }, 90_000)
})

describe('prismic:push with slice screenshots', () => {
  it('uploads each screenshot as Slice Machine does and points the variation at it, once', async () => {
    const dir = projectCopy()
    const heroDir = path.join(dir, 'src', 'slices', 'Hero')
    const png = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#3d3adb' },
    })
      .png()
      .toBuffer()
    rmSync(path.join(dir, 'src', 'slices', 'Faq', 'screenshot-default.png'), { force: true })
    writeFileSync(path.join(heroDir, 'screenshot-default.png'), png)
    writeFileSync(path.join(heroDir, 'screenshot-model.png'), png)
    const digest = createHash('sha1').update(png).digest('hex')

    const repo = await serveWritableRepository({ writeToken: 'secret', languages: ['en-us'] })
    try {
      const contentDir = smallContent()
      const stateFile = path.join(tempDir('state'), 'state.json')
      const push = async () => {
        const lines: string[] = []
        await pushRepository({
          repository: repo.endpoint,
          writeToken: 'secret',
          contentDir,
          modelsDir: dir,
          stateFile,
          log: (line) => lines.push(line),
        })
        return lines
      }
      await push()
      const response = await fetch(`${repo.origin}/customtypes-api/slices/hero`, {
        headers: { Authorization: 'Bearer secret', repository: 'local' },
      })
      const hero = (await response.json()) as SliceModel
      for (const variation of hero.variations) {
        // `URLSearchParams` writes the comma as %2C, as in Slice Machine's own upload.
        expect(variation.imageUrl).toBe(
          `${repo.origin}/slice-screenshots/local/shared-slices/hero/${variation.id}/${digest}.png?auto=compress%2Cformat`,
        )
        const image = await fetch(variation.imageUrl)
        expect(image.status).toBe(200)
        expect(image.headers.get('content-type')).toBe('image/png')
        expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true)
      }
      // A slice without screenshots keeps the model's own imageUrl.
      const faq = (await (
        await fetch(`${repo.origin}/customtypes-api/slices/faq`, {
          headers: { Authorization: 'Bearer secret', repository: 'local' },
        })
      ).json()) as SliceModel
      expect(faq.variations[0]!.imageUrl).not.toContain('/slice-screenshots/')

      // Pushed again with nothing changed: the slice is identical, nothing is uploaded.
      const again = await push()
      expect(again).toContain(
        `identical slice hero (${path.join('src', 'slices', 'Hero', 'model.json')})`,
      )
    } finally {
      await repo.close()
    }
  }, 90_000)

  it('refuses an upload whose policy was not signed by the ACL provider', async () => {
    const repo = await serveWritableRepository({ writeToken: 'secret' })
    try {
      const acl = await fetch(`${repo.origin}/acl-provider/create`, {
        headers: { Authorization: 'Bearer secret', Repository: 'local' },
      })
      expect(acl.status).toBe(200)
      const { values } = (await acl.json()) as {
        values: { url: string; fields: Record<string, string> }
      }
      const form = new FormData()
      form.set('Policy', values.fields.Policy!)
      form.set('X-Amz-Signature', 'forged')
      form.set('key', 'local/shared-slices/hero/default/x.png')
      form.set('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }))
      const refused = await fetch(values.url, { method: 'POST', body: form })
      expect(refused.status).toBe(403)
      const noToken = await fetch(`${repo.origin}/acl-provider/create`, {
        headers: { Repository: 'local' },
      })
      expect(noToken.status).toBe(401)
    } finally {
      await repo.close()
    }
  })
})
