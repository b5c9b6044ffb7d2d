import { parseArgs } from 'node:util'
import { PrismicSyncError } from './errors'
import { pullRepository } from './pull'

/**
 * `npm run prismic:pull -- --repository NAME_OR_URL --out DIR`, with `PRISMIC_ACCESS_TOKEN` for a
 * private repository and, to pull the models too, `PRISMIC_WRITE_TOKEN`.
 */
const { values } = parseArgs({
  options: { repository: { type: 'string' }, out: { type: 'string' } },
})

if (!values.out) {
  console.error('prismic:pull: --out DIR is required (a new folder).')
  process.exit(2)
}

pullRepository({
  repository: values.repository ?? '',
  out: values.out,
  accessToken: process.env.PRISMIC_ACCESS_TOKEN || undefined,
  writeToken: process.env.PRISMIC_WRITE_TOKEN || undefined,
}).catch((error: unknown) => {
  console.error(
    `prismic:pull: ${error instanceof PrismicSyncError ? error.message : String(error)}`,
  )
  if (!(error instanceof PrismicSyncError)) console.error(error)
  process.exit(1)
})
