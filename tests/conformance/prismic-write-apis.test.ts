import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import * as customTypes from '@prismicio/custom-types-client'
import { describe, expect, it } from 'vitest'
import { resolveRepository } from '../../scripts/prismic/endpoints'
import { serveWritableRepository, type WritableRepository } from './prismic-write-helpers'

/**
 * The write stand-ins (`--writable`) driven by the official clients we did not write:
 * `@prismicio/custom-types-client` and `@prismicio/client`'s write client, over real sockets, with
 * the endpoints `prismic:push` derives from the Content API URL alone.
 */

const article = {
  id: 'article',
  label: 'Article',
  repeatable: true,
  status: true,
  format: 'custom',
  json: {
    Main: {
      uid: { type: 'UID', config: { label: 'UID' } },
      title: { type: 'Text', config: { label: 'Title' } },
      cover: { type: 'Image', config: { label: 'Cover' } },
      related: { type: 'Link', config: { label: 'Related', select: 'document' } },
    },
  },
} as unknown as prismic.CustomTypeModel

function clientsFor(repo: WritableRepository, token = 'secret') {
  const endpoints = resolveRepository(repo.endpoint)
  return {
    models: customTypes.createClient({
      repositoryName: endpoints.name,
      endpoint: endpoints.customTypesApi,
      token,
    }),
    write: prismic.createWriteClient(endpoints.name, {
      documentAPIEndpoint: endpoints.contentApi,
      migrationAPIEndpoint: endpoints.migrationApi,
      assetAPIEndpoint: endpoints.assetApi,
      writeToken: token,
    }),
    read: prismic.createClient<prismic.PrismicDocument>(endpoints.name, {
      documentAPIEndpoint: endpoints.contentApi,
    }),
  }
}

describe('Custom Types API stand-in', () => {
  it('inserts, reads, updates and deletes models as the official client expects', async () => {
    const repo = await serveWritableRepository()
    try {
      const { models } = clientsFor(repo)
      await models.insertCustomType(article)
      expect((await models.getAllCustomTypes()).map((m) => m.id)).toEqual(['article'])
      expect(existsSync(path.join(repo.dir, 'customtypes/article/index.json'))).toBe(true)
      await expect(models.insertCustomType(article)).rejects.toThrow(customTypes.ConflictError)
      await models.updateCustomType({ ...article, label: 'Story' })
      expect((await models.getCustomTypeByID('article')).label).toBe('Story')
      await expect(models.updateCustomType({ ...article, id: 'missing' })).rejects.toThrow(
        customTypes.NotFoundError,
      )
      await models.removeCustomType('article')
      await expect(models.getCustomTypeByID('article')).rejects.toThrow(customTypes.NotFoundError)
    } finally {
      await repo.close()
    }
  })

  it('stores shared slices where the content API reads them', async () => {
    const repo = await serveWritableRepository()
    try {
      const { models } = clientsFor(repo)
      const slice = {
        id: 'quote',
        type: 'SharedSlice',
        name: 'Quote',
        description: 'Quote',
        variations: [
          {
            id: 'default',
            name: 'Default',
            docURL: '',
            version: 'initial',
            description: '',
            imageUrl: '',
            primary: {},
          },
        ],
      } as unknown as prismic.SharedSliceModel
      await models.insertSharedSlice(slice)
      expect((await models.getAllSharedSlices()).map((s) => s.id)).toEqual(['quote'])
      expect(existsSync(path.join(repo.dir, 'src/slices/quote/model.json'))).toBe(true)
    } finally {
      await repo.close()
    }
  })

  it('answers 403 ForbiddenError to a token other than --write-token', async () => {
    const repo = await serveWritableRepository({ writeToken: 'right' })
    try {
      await expect(clientsFor(repo, 'wrong').models.getAllCustomTypes()).rejects.toThrow(
        customTypes.ForbiddenError,
      )
    } finally {
      await repo.close()
    }
  })
})

describe('Migration API and Asset API stand-ins', () => {
  it('puts migrated documents in a migration release, served only once published', async () => {
    const repo = await serveWritableRepository()
    try {
      const { models, write, read } = clientsFor(repo)
      await models.insertCustomType(article)
      const migration = prismic.createMigration<prismic.PrismicDocument>()
      const cover = migration.createAsset(
        new File(['<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>'], 'cover.svg', {
          type: 'image/svg+xml',
        }),
        'cover.svg',
      )
      const first = migration.createDocument(
        {
          type: 'article',
          uid: 'first',
          lang: 'en-us',
          tags: ['news'],
          data: { title: 'First', cover },
        },
        'First',
      )
      migration.createDocument(
        {
          type: 'article',
          uid: 'premier',
          lang: 'fr-fr',
          data: { title: 'Premier', related: { link_type: 'Document', id: first } },
        } as never,
        'Premier',
        { masterLanguageDocument: first },
      )
      await write.migrate(migration as never)
      expect(await read.dangerouslyGetAll({ lang: '*' })).toEqual([])
      const release = (await read.getRefs()).find((r) => !r.isMasterRef)
      expect(release).toMatchObject({ id: 'migration-release', label: 'Migration release' })
      const draft = await read.getByUID('article', 'first', { ref: release!.ref })
      expect(draft.data.title).toBe('First')

      expect(await write.publishMigrationRelease()).toEqual({ totalItems: 2 })
      // Read afresh: the client keeps the repository's refs for a few seconds.
      const after = (await (await fetch(repo.endpoint)).json()) as prismic.Repository
      expect(after.refs.map((r) => r.isMasterRef)).toEqual([true])
      const en = await read.getByUID('article', 'first')
      expect(en.id).toBe(first.document.id)
      expect(en.tags).toEqual(['news'])
      expect(en.data.cover).toMatchObject({ alt: null, dimensions: { width: 4, height: 3 } })
      expect(en.alternate_languages).toMatchObject([{ lang: 'fr-fr', uid: 'premier' }])
      const fr = await read.getByUID('article', 'premier', { lang: 'fr-fr' })
      expect(fr.data.related).toMatchObject({ id: en.id, uid: 'first', isBroken: false })
      const assets = (await (
        await fetch(`${repo.origin}/asset-api/assets`, {
          headers: { repository: 'local', authorization: 'Bearer secret' },
        })
      ).json()) as { items: { id: string; filename: string }[] }
      expect(assets.items).toEqual([
        expect.objectContaining({
          id: (en.data.cover as { id: string }).id,
          filename: 'cover.svg',
        }),
      ])
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('keeps the crop of an image field the write client copies from another repository', async () => {
    const repo = await serveWritableRepository({ publishMigrations: true })
    try {
      const { models, write, read } = clientsFor(repo)
      await models.insertCustomType(article)
      // The source: a photograph in a media library, as another repository would serve it.
      const upload = prismic.createMigration()
      const photo = upload.createAsset(
        new File([readFileSync('content/media/photos/portrait-ines.jpg')], 'jar.jpg', {
          type: 'image/jpeg',
        }),
        'jar.jpg',
      )
      await write.migrate(upload)
      // `createAsset(field)` fetches the field's file again, and sends the field's query and
      // `edit` with the new asset (`resolveMigrationImage`).
      const migration = prismic.createMigration<prismic.PrismicDocument>()
      const cover = migration.createAsset({
        id: photo.asset!.id,
        url: `${photo.asset!.url}?auto=compress,format&rect=400,0,1600,1600&w=800&h=800`,
        dimensions: { width: 800, height: 800 },
        edit: { x: 400, y: 0, zoom: 1, background: 'transparent' },
        alt: 'A stoneware jar',
        copyright: null,
      })
      migration.createDocument(
        { type: 'article', uid: 'jar', lang: 'en-us', data: { title: 'Jar', cover } },
        'Jar',
      )
      await write.migrate(migration as never)

      const stored = JSON.parse(
        readFileSync(path.join(repo.dir, 'documents/article/jar/en-us.json'), 'utf8'),
      )
      expect(stored.data.cover).toEqual({
        media: expect.stringMatching(/\.jpg$/),
        alt: 'A stoneware jar',
        crop: { x: 400, y: 0, width: 1600, height: 1600 },
      })
      expect((await read.getByUID('article', 'jar')).data.cover).toMatchObject({
        url: expect.stringMatching(
          /\?auto=compress,format&rect=400,0,1600,1600&w=1600&h=1600&v=[\w-]{12}$/,
        ),
        dimensions: { width: 1600, height: 1600 },
        edit: { x: 400, y: 0, zoom: 1 },
        alt: 'A stoneware jar',
      })
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('refuses to publish a release that would leave the repository invalid, and keeps it unpublished', async () => {
    const repo = await serveWritableRepository()
    try {
      const { models, write, read } = clientsFor(repo)
      await models.insertCustomType(article)
      const migration = prismic.createMigration<prismic.PrismicDocument>()
      migration.createDocument(
        {
          type: 'article',
          uid: 'odd',
          lang: 'en-us',
          data: { title: 'Odd', colour: 'red' },
        } as never,
        'Odd',
      )
      await write.migrate(migration as never)
      await expect(write.publishMigrationRelease()).rejects.toThrow(
        /documents\/article\/odd\/en-us\.json \$\.data\.colour/,
      )
      expect(await read.dangerouslyGetAll({ lang: '*' })).toEqual([])
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('publishes at once with --publish-migrations, when every document has its data', async () => {
    const repo = await serveWritableRepository({ publishMigrations: true })
    try {
      const { models, write, read } = clientsFor(repo)
      await models.insertCustomType(article)
      const migration = prismic.createMigration<prismic.PrismicDocument>()
      migration.createDocument(
        { type: 'article', uid: 'now', lang: 'en-us', data: { title: 'Now' } },
        'Now',
      )
      await write.migrate(migration as never)
      expect((await read.getByUID('article', 'now')).data.title).toBe('Now')
      expect(existsSync(path.join(repo.dir, '.migration-release'))).toBe(false)
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('answers 403 to a wrong write token and 400 to an unknown type, naming it', async () => {
    const repo = await serveWritableRepository({ writeToken: 'right' })
    try {
      const wrong = prismic.createMigration<prismic.PrismicDocument>()
      wrong.createDocument({ type: 'article', uid: 'x', lang: 'en-us', data: {} }, 'X')
      await expect(clientsFor(repo, 'wrong').write.migrate(wrong as never)).rejects.toThrow(
        prismic.ForbiddenError,
      )
      const unknown = prismic.createMigration<prismic.PrismicDocument>()
      unknown.createDocument({ type: 'gallery', uid: 'x', lang: 'en-us', data: {} }, 'X')
      await expect(clientsFor(repo, 'right').write.migrate(unknown as never)).rejects.toThrow(
        /Unknown type "gallery"/,
      )
    } finally {
      await repo.close()
    }
  }, 60_000)

  it('limits writes to one a second with 429 and Retry-After, as the references say', async () => {
    const repo = await serveWritableRepository()
    try {
      const post = () =>
        fetch(`${repo.origin}/migration/documents`, {
          method: 'POST',
          headers: {
            repository: 'local',
            authorization: 'Bearer t',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ title: 'x', type: 'nothing', lang: 'en-us', data: {} }),
        })
      expect((await post()).status).toBe(400)
      const second = await post()
      expect(second.status).toBe(429)
      expect(second.headers.get('retry-after')).toBe('1')
      const release = path.join(repo.dir, '.migration-release')
      expect(
        existsSync(release) ? readFileSync(path.join(release, 'release.json'), 'utf8') : '',
      ).toBe('')
    } finally {
      await repo.close()
    }
  })
})
