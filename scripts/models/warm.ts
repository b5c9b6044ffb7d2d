// The build's last step (scripts/build-if-needed.mjs): makes both tiers' variants of every model
// the published documents link to, into the model cache the server reads (.data/model-cache, or
// MODEL_CACHE_DIR), so the first visitors meet warm variants. The webhook does the same after each publish.
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { createContentApi } from '@services/content-api/app'
import { arModelLinks, modelLinks, type WarmReport } from '@services/content-api/models/warm'
import { loadConfig } from '../../src/lib/config'
import { assetScope } from '../../src/lib/content/asset-hosts'
import { createModelProxy } from '../../src/lib/content/model-proxy'
import { hostedEndpoint, repositoryName } from '../../src/prismicio'

async function main(): Promise<WarmReport> {
  const config = loadConfig()
  if (config.content.mode === 'local') {
    const api = createContentApi({
      contentDir: path.resolve(config.content.contentDir),
      modelsDir: process.cwd(),
    })
    return api.warmModels()
  }
  const endpoint = hostedEndpoint(config.content.repository)
  // Named, with the endpoint beside it: given an endpoint off prismic.io (a compatible API), the
  // client warns that it cannot infer a repository name.
  const client = prismic.createClient(repositoryName(endpoint), {
    documentAPIEndpoint: endpoint,
    accessToken: config.content.accessToken,
  })
  const documents = await client.dangerouslyGetAll()
  return createModelProxy({ scope: assetScope(config) }).warm(
    modelLinks(documents),
    arModelLinks(documents),
  )
}

const started = Date.now()
main().then(
  ({ models, made, failed }) => {
    console.log(
      `Model variants: ${models} model${models === 1 ? '' : 's'}, ${made} variant${made === 1 ? '' : 's'} made, ${failed.length} failed (${((Date.now() - started) / 1000).toFixed(1)} s).`,
    )
    process.exit(0)
  },
  (error: Error) => {
    // A build stands without warm variants: the first visitor of each model makes them.
    console.error(`Model variants were not made ahead: ${error.message}`)
    process.exit(0)
  },
)
