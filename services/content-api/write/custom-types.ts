import { rmSync } from 'node:fs'
import path from 'node:path'
import { Hono, type Context } from 'hono'
import { loadModels, sliceLibraries } from '../validate'
import { requireWriteToken, type Refuse } from './auth'
import { writeJsonAtomic } from './files'

/**
 * Stand-in for Prismic's Custom Types API, served under `<origin>/customtypes-api/` (the
 * `endpoint` of `@prismicio/custom-types-client`). The models live where Slice Machine keeps them
 * in the repository's models folder: `customtypes/<id>/index.json` and
 * `<first slice library>/<id>/model.json`, which is where the content API reads them from.
 *
 * Statuses follow the official client's `fetch` (custom-types-client src/client.ts): 200 with
 * JSON for reads, 201 for an insert, 204 for an update or a delete, 400 (text) for a bad body,
 * 403 (`{ message }`) for a missing or wrong token, 409 for an id already used on insert, 404
 * for an unknown id on read or delete, and 422 for an unknown id on update.
 */

const refuse: Refuse = (c, why, message) => {
  if (why === 'missing-repository') return c.text(message, 400)
  if (why === 'rate-limited') return c.json({ message }, 429)
  return c.json({ message }, 403)
}

type Model = { id?: unknown } & Record<string, unknown>

/** Creates the Custom Types API stand-in over the models in `modelsDir`. */
export function createCustomTypesApi(options: {
  modelsDir: string
  writeToken?: string
  changed: () => void
}): Hono {
  const app = new Hono()
  app.use('*', requireWriteToken({ writeToken: options.writeToken, refuse }))

  const kinds = {
    customtypes: {
      all: () => loadModels(options.modelsDir).customTypes,
      fileFor: (id: string) => path.join(options.modelsDir, 'customtypes', id, 'index.json'),
    },
    slices: {
      all: () => loadModels(options.modelsDir).slices,
      fileFor: (id: string) =>
        path.join(options.modelsDir, sliceLibraries(options.modelsDir)[0]!, id, 'model.json'),
    },
  }

  for (const [kind, store] of Object.entries(kinds)) {
    const existing = (id: string) => store.all().get(id)
    app.get(`/${kind}`, (c) => c.json([...store.all().values()].map((m) => m.model)))
    app.post(`/${kind}/insert`, async (c) => {
      const model = await readModel(c)
      if (typeof model === 'string') return c.text(model, 400)
      if (existing(model.id as string)) return c.body(null, 409)
      writeJsonAtomic(store.fileFor(model.id as string), model)
      options.changed()
      return c.body(null, 201)
    })
    app.post(`/${kind}/update`, async (c) => {
      const model = await readModel(c)
      if (typeof model === 'string') return c.text(model, 400)
      const current = existing(model.id as string)
      if (!current) return c.body(null, 422)
      writeJsonAtomic(path.join(options.modelsDir, current.file), model)
      options.changed()
      return c.body(null, 204)
    })
    app.get(`/${kind}/:id`, (c) => {
      const current = existing(c.req.param('id'))
      return current ? c.json(current.model) : c.body(null, 404)
    })
    app.delete(`/${kind}/:id`, (c) => {
      const current = existing(c.req.param('id'))
      if (!current) return c.body(null, 404)
      rmSync(path.dirname(path.join(options.modelsDir, current.file)), { recursive: true })
      options.changed()
      return c.body(null, 204)
    })
  }
  return app
}

/** The model in the body, or the text of a 400 answer. */
async function readModel(c: Context): Promise<Model | string> {
  let model: unknown
  try {
    model = JSON.parse(await c.req.text())
  } catch {
    return 'The body is not valid JSON.'
  }
  if (!model || typeof model !== 'object' || Array.isArray(model)) return 'Expected a model object.'
  const id = (model as Model).id
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(id))
    return `The model's "id" must be letters, digits, "-" or "_"; got ${JSON.stringify(id)}.`
  return model as Model
}
