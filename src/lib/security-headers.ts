import type { Config } from './config'

/**
 * The security headers of every response, derived from the configuration so that each mode's
 * Content Security Policy lists exactly the origins it needs: none beyond the site's own in local
 * mode; Prismic's image CDN and preview toolbar with hosted content; EmailJS's API with hosted
 * mail. docs/security.md says what each header defends against.
 */

type Header = { key: string; value: string }

const PRISMIC_IMAGES = 'https://images.prismic.io'
const PRISMIC_TOOLBAR = 'https://static.cdn.prismic.io'
const PRISMIC_ORIGINS = 'https://*.prismic.io'
const EMAILJS_API = 'https://api.emailjs.com'
/** Origins allowed to frame the slice simulator (Slice Machine, running locally or on Prismic). */
export const SLICE_SIMULATOR_ANCESTORS = ["'self'", 'https://*.prismic.io', 'http://localhost:9999']

function origin(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** The Content Security Policy for this configuration. */
export function contentSecurityPolicy(
  config: Config,
  options: { dev: boolean; frameAncestors?: string[] },
): string {
  const site = origin(config.siteUrl)
  const hostedContent = config.content.mode === 'hosted'
  const repository = config.content.mode === 'hosted' ? config.content.repository : ''
  const contentApi = /^https?:/.test(repository) ? origin(repository) : undefined
  const list = (...items: (string | false | undefined)[]) =>
    [...new Set(items.filter(Boolean))].join(' ')

  const directives: Record<string, string> = {
    'default-src': "'self'",
    // The base policy. Next's App Router writes its payload in inline scripts that differ per
    // page and change when a page is revalidated; in production the serving layer (server/) replaces
    // 'unsafe-inline' in each HTML response with the hashes of that page's own inline scripts.
    // 'wasm-unsafe-eval' lets the self-hosted mesh decoder compile WebAssembly; 'unsafe-eval'
    // is allowed in development only, where React needs it.
    'script-src': list(
      "'self'",
      "'unsafe-inline'",
      "'wasm-unsafe-eval'",
      options.dev && "'unsafe-eval'",
      hostedContent && PRISMIC_TOOLBAR,
    ),
    'style-src': "'self' 'unsafe-inline'",
    'img-src': list("'self'", 'data:', 'blob:', site, hostedContent && PRISMIC_IMAGES, contentApi),
    'font-src': "'self'",
    'connect-src': list(
      "'self'",
      site,
      contentApi,
      hostedContent && PRISMIC_ORIGINS,
      config.mail.mode === 'hosted' && EMAILJS_API,
    ),
    'media-src': list("'self'", site),
    'worker-src': "'self' blob:",
    'frame-src': list("'self'", hostedContent && PRISMIC_ORIGINS),
    'object-src': "'none'",
    'base-uri': "'self'",
    'form-action': "'self'",
    'frame-ancestors': (options.frameAncestors ?? ["'none'"]).join(' '),
  }
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')
}

/**
 * The policy of the KTX2 transcoder's worker (src/app/3d-decoders/): it may compile WebAssembly
 * and evaluate strings, which the transcoder's Emscripten bindings do (`new Function`), and
 * nothing else: no script, fetch or worker of any origin. The page hands it the transcoder's
 * binary and each texture's bytes by message. Its own policy, not the page's: a `blob:` worker
 * would run under the page's, which has no `'unsafe-eval'` and should not.
 */
export const DECODER_WORKER_POLICY =
  "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Every security header for a route; the slice simulator may be framed by Prismic; the 3D
 * decoders (a worker among them) have a policy of their own.
 */
export function securityHeaders(
  config: Config,
  options: { dev: boolean; sliceSimulator?: boolean; decoderWorker?: boolean },
): Header[] {
  const frameAncestors = options.sliceSimulator ? SLICE_SIMULATOR_ANCESTORS : ["'none'"]
  const headers: Header[] = [
    {
      key: 'Content-Security-Policy',
      value: options.decoderWorker
        ? DECODER_WORKER_POLICY
        : contentSecurityPolicy(config, { dev: options.dev, frameAncestors }),
    },
    { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains; preload' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    {
      key: 'Permissions-Policy',
      value:
        'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=(), interest-cohort=()',
    },
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  ]
  if (!options.sliceSimulator) headers.push({ key: 'X-Frame-Options', value: 'DENY' })
  return headers
}
