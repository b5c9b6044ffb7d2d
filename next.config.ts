import type { NextConfig } from 'next'
import { loadConfig, ConfigError } from './src/lib/config'

// Validate the environment at build and at start: a bad variable stops here with one message.
try {
  loadConfig()
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`\n${error.message}\n`)
    process.exit(1)
  }
  throw error
}

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The site's CSS is small (one global sheet): inlined, it no longer blocks the first paint.
  experimental: { inlineCss: true },
  // The embedded content API reads the content folder at run time.
  outputFileTracingIncludes: {
    '/**': ['./content/**/*', './customtypes/**/*', './src/slices/*/model.json'],
  },
}

export default nextConfig
