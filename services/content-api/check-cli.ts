import { parseArgs } from 'node:util'
import { checkFolder, defaultModelsDir, formatProblems } from './validate'
import { checkSliceMocks } from './slice-mocks'

/**
 * `npm run content:check [-- --content DIR --models DIR]`: every document, published or in a
 * release, against its model, and each slice's Slice Machine mocks against theirs; exits 1 with the report, warnings included (the API serves what
 * only warns, as Prismic would; CI does not). Models come from DIR itself when it has
 * `customtypes/`, else from `.`.
 */
const { values } = parseArgs({
  options: {
    content: { type: 'string', default: process.env.CONTENT_DIR ?? 'content' },
    models: { type: 'string' },
  },
})

const modelsDir = values.models ?? defaultModelsDir(values.content)
const checked = checkFolder(values.content, modelsDir)
const { store } = checked
const problems = [...checked.problems, ...checkSliceMocks(modelsDir)]
if (problems.length > 0) {
  console.error(formatProblems(problems, store.dir))
  process.exit(1)
}
console.log(
  `content:check: ${store.documents.length} documents in ${store.dir} are valid (ref ${store.ref}).`,
)
