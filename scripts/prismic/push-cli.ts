import { parseArgs } from 'node:util'
import { PrismicSyncError } from './errors'
import { pushRepository } from './push'

/**
 * `npm run prismic:push -- --repository NAME_OR_URL [--content DIR] [--models DIR] [--dry-run]
 * [--prune] [--publish] [--state FILE] [--no-screenshots]`, with the write token in `PRISMIC_WRITE_TOKEN` (and
 * `PRISMIC_ACCESS_TOKEN` for a private repository's Content API).
 */
const { values } = parseArgs({
  options: {
    repository: { type: 'string' },
    content: { type: 'string', default: 'content' },
    models: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    prune: { type: 'boolean', default: false },
    publish: { type: 'boolean', default: false },
    state: { type: 'string' },
    'no-screenshots': { type: 'boolean', default: false },
  },
})

pushRepository({
  repository: values.repository ?? '',
  writeToken: process.env.PRISMIC_WRITE_TOKEN,
  accessToken: process.env.PRISMIC_ACCESS_TOKEN || undefined,
  contentDir: values.content,
  modelsDir: values.models,
  dryRun: values['dry-run'],
  prune: values.prune,
  publish: values.publish,
  stateFile: values.state,
  noScreenshots: values['no-screenshots'],
}).catch((error: unknown) => {
  console.error(
    `prismic:push: ${error instanceof PrismicSyncError ? error.message : String(error)}`,
  )
  if (!(error instanceof PrismicSyncError)) console.error(error)
  process.exit(1)
})
