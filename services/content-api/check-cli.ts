import { parseArgs } from 'node:util'
import { loadContent } from './store'
import { formatProblems, validateContent } from './validate'

/** `npm run content:check`: every document against its model; exits 1 with a report. */
const { values } = parseArgs({
  options: {
    content: { type: 'string', default: process.env.CONTENT_DIR ?? 'content' },
    models: { type: 'string', default: '.' },
  },
})

const store = loadContent(values.content)
const problems = [...store.problems, ...validateContent(store, values.models)]
if (problems.length > 0) {
  console.error(formatProblems(problems, store.dir))
  process.exit(1)
}
console.log(
  `content:check: ${store.documents.length} documents in ${store.dir} are valid (ref ${store.ref}).`,
)
