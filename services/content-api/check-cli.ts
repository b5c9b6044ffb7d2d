import { parseArgs } from 'node:util'
import { checkFolder, defaultModelsDir, formatProblems } from './validate'
import { checkSliceMocks } from './slice-mocks'
import path from 'node:path'
import { checkModels, modelFiles } from './models-check'
import { checkStories } from './story-check'
import { checkHotspots } from './hotspots-check'
import { checkLooks } from './look-check'
import { checkForms } from './forms-check'
import { reportModels } from './models/report'

/**
 * `npm run content:check [-- --content DIR --models DIR]`: every document, published or in a
 * release, against its model, each slice's Slice Machine mocks against theirs, and every 3D
 * model in the media folder as the renderer reads it (services/content-api/models-check.ts), and
 * each model viewer's hotspots and finishes' labels against their model
 * (services/content-api/hotspots-check.ts), and the 3D look of each model slice and of the
 * settings (services/content-api/look-check.ts), and each form slice's words: none a visitor may
 * need left empty (services/content-api/forms-check.ts);
 * exits 1 with the report, warnings included (the API serves what only warns, as Prismic would;
 * CI does not). Models come from DIR itself when it has `customtypes/`, else from `.`.
 *
 * Then each 3D model's bytes, triangles and texture sizes, as uploaded and per tier, with a
 * warning naming the file when even its high-tier variant is over the high tier's budget
 * (services/content-api/models/report.ts). A warning, not a failure: the site serves the model.
 */
const { values } = parseArgs({
  options: {
    content: { type: 'string', default: process.env.CONTENT_DIR ?? 'content' },
    models: { type: 'string' },
  },
})

async function main() {
  const modelsDir = values.models ?? defaultModelsDir(values.content)
  const checked = checkFolder(values.content, modelsDir)
  const { store } = checked
  const models = await checkModels(values.content)
  const problems = [
    ...checked.problems,
    ...checkSliceMocks(modelsDir),
    ...models.problems,
    ...checkHotspots([store, ...checked.releases], models),
    ...(await checkLooks([store, ...checked.releases], path.join(values.content, 'media'))),
    ...checkForms([store, ...checked.releases]),
    ...checkStories([store, ...checked.releases], models),
  ]
  if (problems.length > 0) {
    console.error(formatProblems(problems, store.dir))
    process.exit(1)
  }
  const media = path.join(values.content, 'media')
  const reports = await reportModels(
    modelFiles(media).map((file) => ({ file, name: path.relative(media, file) })),
  )
  for (const report of reports) console.log(`  ${report.line}`)
  for (const report of reports) if (report.warning) console.warn(`warning: ${report.warning}`)
  console.log(
    `content:check: ${store.documents.length} documents and ${models.count} 3D models in ${store.dir} are valid (ref ${store.ref}).`,
  )
}

void main()
