import { parseArgs } from 'node:util'
import * as prismic from '@prismicio/client'
import { resolveRepository } from './endpoints'
import { describeError } from './errors'

/**
 * `npm run prismic:publish -- --repository NAME_OR_URL`: publishes the repository's migration
 * release (the write client's `publishMigrationRelease`), with `PRISMIC_WRITE_TOKEN`.
 */
const { values } = parseArgs({ options: { repository: { type: 'string' } } })

async function main(): Promise<void> {
  const endpoints = resolveRepository(values.repository)
  const writeToken = process.env.PRISMIC_WRITE_TOKEN
  if (!writeToken)
    throw new Error('PRISMIC_WRITE_TOKEN is not set: publishing needs a write token.')
  const client = prismic.createWriteClient(endpoints.name, {
    documentAPIEndpoint: endpoints.contentApi,
    migrationAPIEndpoint: endpoints.migrationApi,
    assetAPIEndpoint: endpoints.assetApi,
    writeToken,
  })
  const { totalItems } = await client.publishMigrationRelease().catch((error) => {
    throw new Error(`publishing the migration release failed: ${describeError(error)}`)
  })
  console.log(
    `Published the migration release of ${endpoints.contentApi}: ${totalItems} document(s).`,
  )
}

main().catch((error: unknown) => {
  console.error(`prismic:publish: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
