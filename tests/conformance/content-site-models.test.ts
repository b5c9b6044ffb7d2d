import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { describe, expect, it } from 'vitest'
import { createContentApi } from '@services/content-api/app'
import { loadModels } from '@services/content-api/validate'
import { generateFromModels } from '../fixtures/random-content'
import { freePort, started } from './helpers'

/**
 * A random content folder generated from the project's own models (whatever custom types and
 * slices they hold today): it passes validation, and served standalone it answers the official
 * client with every document, every field of its model, every slice variation, routes and
 * alternates.
 */

describe('a random folder for the project’s models', () => {
  it('is valid and is served standalone with every field, slice variation and alternate', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31)
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-site-models-'))
    const models = loadModels(process.cwd())
    const { documents, masterLang } = generateFromModels(process.cwd(), dir, seed)
    // Valid against the models in place (what content:check checks), with a report otherwise.
    expect(() =>
      createContentApi({ contentDir: dir, modelsDir: process.cwd() }).close(),
    ).not.toThrow()

    const port = await freePort()
    const child = spawn(
      'npm',
      ['run', 'content-api', '--', '--port', String(port), '--content', dir],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_ENV: 'production' },
      },
    )
    try {
      await started(child)
      const routes = [...models.customTypes.keys()].map((type) => ({
        type,
        path: `/:lang/${type}/:uid?`,
      }))
      const client = prismic.createClient<prismic.PrismicDocument>(
        `http://127.0.0.1:${port}/api/v2`,
        {
          routes,
        },
      )
      const served = await client.dangerouslyGetAll({ lang: '*' })
      expect(served).toHaveLength(documents.length)
      for (const source of documents) {
        const doc = served.find(
          (d) => d.type === source.type && d.lang === source.lang && d.uid === (source.uid ?? null),
        )
        expect(doc, `${source.type}/${source.key}/${source.lang}`).toBeDefined()
        const fields = Object.values(models.customTypes.get(source.type)!.model.json ?? {})
          .flatMap((tab) => Object.entries(tab))
          .filter(([, f]) => f.type !== 'UID')
          .map(([name]) => name)
        expect(Object.keys(doc!.data).sort()).toEqual(fields.sort())
        expect(doc!.url).toBe(`/${source.lang}/${source.type}${source.uid ? `/${source.uid}` : ''}`)
        expect(doc!.alternate_languages.map((a) => a.lang)).toEqual(
          ['en-us', 'fr-fr'].filter((l) => l !== source.lang),
        )
        for (const [name, value] of Object.entries(source.data)) {
          if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
            expect(doc!.data[name], `${source.type}.${name}`).toBe(value)
        }
      }
      // Every slice and variation of the models reaches the client.
      const variations = new Set(
        served.flatMap((d) =>
          Object.values(d.data)
            .filter(Array.isArray)
            .flat()
            .filter(
              (s): s is prismic.SharedSlice => !!s && typeof s === 'object' && 'slice_type' in s,
            )
            .map((s) => `${s.slice_type}/${s.variation}`),
        ),
      )
      const zones = [...models.customTypes.values()].flatMap(({ model }) =>
        Object.values(model.json ?? {}).flatMap((tab) =>
          Object.values(tab).flatMap((f) => Object.keys(f.config?.choices ?? {})),
        ),
      )
      for (const sliceType of new Set(zones))
        for (const variation of models.slices.get(sliceType)?.model.variations ?? [])
          expect(variations, `seed ${seed}`).toContain(`${sliceType}/${variation.id}`)
      expect((await client.getRepository()).languages.find((l) => l.is_master)?.id).toBe(masterLang)
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
