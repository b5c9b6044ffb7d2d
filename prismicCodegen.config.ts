import type { Config } from 'prismic-ts-codegen'

/** Content types are generated from the Slice Machine models: `npm run types`. */
const config: Config = {
  output: './prismicio-types.d.ts',
  clientIntegration: { includeCreateClientInterface: true, includeContentNamespace: true },
  locales: { ids: ['en-us', 'fr-fr'] },
  models: { files: ['./customtypes/**/index.json', './src/slices/**/model.json'] },
}

export default config
