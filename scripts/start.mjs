// `npm start`: builds the production site if needed (scripts/build-if-needed.mjs), then serves
// it on PORT (default 3000) through the production server (server/index.mjs). PORT never
// triggers a build: one build serves on any port and under any host name.
import { buildIfNeeded, exitOnRefusal } from './build-if-needed.mjs'

process.env.NEXT_TELEMETRY_DISABLED ??= '1'

if (!process.env.SITE_URL?.trim()) {
  console.warn(
    'SITE_URL is not set. The site works under any host name, but its canonical URLs, Open ' +
      'Graph tags and sitemap will name http://localhost:3000. Set SITE_URL to the public ' +
      'origin (such as https://www.example.com) before building for production.',
  )
}

exitOnRefusal(() => buildIfNeeded(process.env))
await import('../server/index.mjs')
