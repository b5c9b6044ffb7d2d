import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import { ContentInvalidError, createContentApi } from './app'
import { defaultModelsDir } from './validate'
import { initWritableRepository } from './write'

/**
 * `npm run content-api -- --port N --content DIR [--models DIR] [--access-token T]
 * [--rate-limit N/s] [--retry-after S] [--watch] [--writable [--write-token T]
 * [--publish-migrations] [--languages en-us,fr-fr]]`: the content API on 127.0.0.1:N. With `--writable`, also the write
 * stand-ins (docs/prismic-write-apis.md) over the same folder, which then holds its own models.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    content: { type: 'string', default: 'content' },
    models: { type: 'string' },
    'access-token': { type: 'string' },
    'rate-limit': { type: 'string' },
    'retry-after': { type: 'string', default: '1' },
    watch: { type: 'boolean', default: process.env.NODE_ENV !== 'production' },
    writable: { type: 'boolean', default: false },
    'write-token': { type: 'string' },
    'publish-migrations': { type: 'boolean', default: false },
    // The sample content's languages, so the repo's own content pushes with no other flag.
    languages: { type: 'string', default: 'en-us,fr-fr' },
  },
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: expected a port number from 0 to 65535, got "${values.port}"`)
  process.exit(2)
}
const rateMatch = values['rate-limit']?.match(/^(\d+)(\/s)?$/)
if (values['rate-limit'] && !rateMatch) {
  console.error(
    `--rate-limit: expected requests per second such as 10/s, got "${values['rate-limit']}"`,
  )
  process.exit(2)
}

if (!(Number(values['retry-after']) >= 0)) {
  console.error(`--retry-after: expected seconds, got "${values['retry-after']}"`)
  process.exit(2)
}

if (values.writable) initWritableRepository(values.content, values.languages.split(','))

try {
  const api = createContentApi({
    contentDir: values.content,
    // A writable repository keeps its models, as a Prismic repository does.
    modelsDir:
      values.models ?? (values.writable ? values.content : defaultModelsDir(values.content)),
    accessToken: values['access-token'],
    rateLimit: rateMatch ? Number(rateMatch[1]) : undefined,
    retryAfter: Number(values['retry-after']),
    watch: values.watch,
    write: values.writable
      ? {
          writeToken: values['write-token'],
          publishMigrations: values['publish-migrations'],
        }
      : undefined,
  })
  const server = serve({ fetch: api.fetch, port, hostname: '127.0.0.1' }, (info) => {
    console.log(
      `Content API: http://127.0.0.1:${info.port}/api/v2 (content: ${values.content}, ref ${api.store().ref})`,
    )
    if (values.writable)
      console.log(
        `Write APIs: http://127.0.0.1:${info.port}/migration, /asset-api, /customtypes-api (${values['write-token'] ? 'one write token' : 'any write token'}${values['publish-migrations'] ? ', migrations published at once' : ''})`,
      )
  })
  const stop = () => {
    api.close()
    server.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  if (error instanceof ContentInvalidError) {
    console.error(error.report)
    process.exit(1)
  }
  throw error
}
