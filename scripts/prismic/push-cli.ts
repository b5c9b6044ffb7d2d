import path from 'node:path'
import { parseArgs } from 'node:util'
import { modelFiles } from '../../services/content-api/models-check'
import { reportModels } from '../../services/content-api/models/report'
import { PrismicSyncError } from './errors'
import { pushRepository } from './push'

/**
 * `npm run prismic:push -- --repository NAME_OR_URL [--content DIR] [--models DIR] [--dry-run]
 * [--prune] [--publish] [--state FILE] [--no-screenshots]`, with the write token in `PRISMIC_WRITE_TOKEN` (and
 * `PRISMIC_ACCESS_TOKEN` for a private repository's Content API).
 *
 * First, each 3D model's bytes, triangles and texture sizes, as uploaded and per tier, with a
 * warning naming the file when even its high-tier variant is over the high tier's budget
 * (services/content-api/models/report.ts): the editor hears it before a visitor does.
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

async function reportMedia(contentDir: string) {
  const media = path.join(contentDir, 'media')
  const reports = await reportModels(
    modelFiles(media).map((file) => ({ file, name: path.relative(media, file) })),
  )
  if (reports.length) console.log('3D models (as uploaded; as each tier gets them):')
  for (const report of reports) console.log(`  ${report.line}`)
  for (const report of reports) if (report.warning) console.warn(`warning: ${report.warning}`)
}

reportMedia(values.content)
  .catch((error: Error) =>
    console.warn(`prismic:push: the models were not measured: ${error.message}`),
  )
  .then(() =>
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
    }),
  )
  .catch((error: unknown) => {
    console.error(
      `prismic:push: ${error instanceof PrismicSyncError ? error.message : String(error)}`,
    )
    if (!(error instanceof PrismicSyncError)) console.error(error)
    process.exit(1)
  })
