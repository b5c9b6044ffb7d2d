import type { NextConfig } from 'next'
import { loadConfig, ConfigError, type Config } from './src/lib/config'
import { securityHeaders } from './src/lib/security-headers'

// Validate the environment at build and at start: a bad variable stops here with one message.
let config: Config
try {
  config = loadConfig()
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`\n${error.message}\n`)
    process.exit(1)
  }
  throw error
}
const dev = process.env.NODE_ENV === 'development'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // server/ reads each page before compressing it, so it compresses; `next start` alone does.
  compress: process.env.FACET_OWN_COMPRESSION !== '1',
  // Identifies this build in the content cache's key for the repository endpoint (src/prismicio.ts).
  env: { FACET_BUILD_ID: `${Date.now().toString(36)}` },
  // A second build (the foreign-content check) can live beside the main one.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  // `npm test` checks the types once (its `types` stage, then its main build with the route
  // types) and builds the same source three more times (foreign, rtl, pushed):
  // FACET_TYPES_CHECKED=1 tells those builds that Next's own check (about 20 s) would repeat it.
  // Next still verifies the TypeScript setup (and leaves tsconfig.json alone) either way.
  typescript: { ignoreBuildErrors: process.env.FACET_TYPES_CHECKED === '1' },
  // With REDIS_URL, every node shares one cache through Redis (docs/deploy.md, several nodes);
  // without it, Next's own file cache. Read at build and at start, like every setting here.
  cacheHandler: config.redisUrl ? require.resolve('./server/cache-handler.mjs') : undefined,
  turbopack: {
    // three.js from its source modules, not its two prebuilt files: Turbopack drops an unused
    // module, not the unused half of one, so `three/build/three.core.js` (one 1.5 MB module) went
    // into the 3D chunk whole (101.6 KB gzipped, against 105.8 KB for all of it). From `src/`,
    // whose modules three's package marks free of side effects, only the classes the scenes, R3F
    // and the loaders reach are kept: the render worker's scripts went from 295.5 to 278.5 KB
    // gzipped (`npm run test:bundles`). Every import of `three`, ours and the libraries', meets
    // the same copy; `three/examples/jsm/*` import `three` and so do too.
    //
    // zustand (R3F's store) imports use-sync-external-store's shim, which only hands on React's own
    // `useSyncExternalStore` from React 18 on, but brings its fallback for older React along: the
    // same package's plain entry, for React 18 and later, is the shim without it.
    resolveAlias: {
      three: 'three/src/Three.js',
      'use-sync-external-store/shim/with-selector.js': 'use-sync-external-store/with-selector.js',
    },
    rules: {
      // three.js's GLSL without its comments and indentation (scripts/glsl-minify-loader.cjs): the
      // render worker's scripts and the AR session's three.js are that much smaller.
      '*.js': {
        condition: {
          all: [
            'browser',
            { path: /node_modules[\\/]three[\\/]src[\\/]/, content: /\/\* glsl \*\// },
          ],
        },
        loaders: [require.resolve('./scripts/glsl-minify-loader.cjs')],
      },
    },
  },
  experimental: {
    // The site's CSS is small (one global sheet): inlined, it no longer blocks the first paint.
    inlineCss: true,
    // Turbopack shortens the names its modules export to each other, but not those of a module
    // whose namespace object escapes (three.js's, which R3F reads as a namespace): with this, it
    // shortens them behind a facade too. The render worker's first scripts: 1.4 KB gzipped less
    // (`npm run test:bundles`). Next makes it the default wherever export mangling is asked for
    // explicitly; it could only trouble code that patches modules, which the site has none of.
    turbopackMangleViaMaterializedNamespaceObject: true,
    // Turbopack keeps a cache of each build in the dist dir for the next one. FACET_BUILD_CACHE=0
    // skips writing it where no build will read it (`npm test` in CI, on a fresh clone).
    turbopackFileSystemCacheForBuild: process.env.FACET_BUILD_CACHE !== '0',
  },
  // The embedded content API reads the content folder at run time.
  async headers() {
    return [
      {
        source: '/((?!slice-simulator|3d-decoders/).*)',
        headers: securityHeaders(config, { dev }),
      },
      // The 3D decoders: files fetched as data, and the KTX2 transcoder's worker, whose policy is
      // its own (src/app/3d-decoders/).
      {
        source: '/3d-decoders/:path*',
        headers: securityHeaders(config, { dev, decoderWorker: true }),
      },
      {
        source: '/slice-simulator',
        headers: securityHeaders(config, { dev, sliceSimulator: true }),
      },
    ]
  },
  outputFileTracingIncludes: {
    // The model variants' child process runs this folder's worker from the working directory.
    '/**': [
      './content/**/*',
      './customtypes/**/*',
      './src/slices/*/model.json',
      './services/content-api/models/*.ts',
    ],
  },
}

export default nextConfig
