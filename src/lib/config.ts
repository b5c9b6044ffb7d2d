import { z } from 'zod'

/**
 * Every environment variable Facet reads, validated in one place. `loadConfig` runs at build
 * (from `next.config.ts`) and at start, so a bad value stops the site with one message that names
 * each bad variable, instead of surfacing later as a blank page or a stuck form.
 */

const REPOSITORY_NAME = /^[a-zA-Z0-9][-a-zA-Z0-9]*$/

/** A host name (or `*.` and a domain), with an optional port. */
const ASSET_HOST = /^(\*\.)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:\d{1,5})?$/

const EMAILJS_REQUIRED = [
  'NEXT_PUBLIC_EMAILJS_PUBLIC_KEY',
  'NEXT_PUBLIC_EMAILJS_SERVICE_ID',
  'NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID',
  'NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID',
] as const

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const booleanFlag = (name: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined
      if (value === 'true' || value === '1') return true
      if (value === 'false' || value === '0') return false
      ctx.addIssue({
        code: 'custom',
        message: `expected "true" or "false" for ${name}, got "${value}"`,
      })
      return z.NEVER
    })

const envSchema = z.object({
  PORT: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 3000
      const port = Number(value)
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a port number from 0 to 65535, got "${value}"`,
        })
        return z.NEVER
      }
      return port
    }),
  SITE_URL: optionalString.pipe(
    z
      .url({
        protocol: /^https?$/,
        error: 'expected an absolute http(s) URL such as https://example.com',
      })
      .optional(),
  ),
  PRISMIC_REPOSITORY: optionalString.pipe(
    z
      .string()
      .refine((value) => REPOSITORY_NAME.test(value) || isContentApiUrl(value), {
        error: (issue) =>
          `expected a Prismic repository name (such as "my-studio") or a Content API URL ending in /api/v2 (such as "https://my-studio.cdn.prismic.io/api/v2"), got "${String(issue.input)}"`,
      })
      .optional(),
  ),
  PRISMIC_ACCESS_TOKEN: optionalString,
  PRISMIC_WEBHOOK_SECRET: optionalString,
  CONTENT_DIR: optionalString,
  OUTBOX_DIR: optionalString,
  // Read where the model cache is opened (services/content-api/models/variants.ts); listed here
  // with the rest of the settings.
  MODEL_CACHE_DIR: optionalString,
  OUTBOX_TOKEN: optionalString,
  SMTP_URL: optionalString.pipe(
    z
      .url({
        protocol: /^smtps?$/,
        error: 'expected an smtp:// or smtps:// URL such as smtp://user:pass@host:587',
      })
      .optional(),
  ),
  MAIL_API_ALLOW_NON_BROWSER: booleanFlag('MAIL_API_ALLOW_NON_BROWSER'),
  MAIL_API_RATE_LIMIT: optionalString.transform((value, ctx) => {
    if (value === undefined) return undefined
    if (!/^\d+(\.\d+)?$/.test(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected requests per second such as 1 (0 turns the limit off), got "${value}"`,
      })
      return z.NEVER
    }
    return Number(value)
  }),
  MAIL_API_DEDUPE: booleanFlag('MAIL_API_DEDUPE'),
  REDIS_URL: optionalString.pipe(
    z
      .url({
        protocol: /^rediss?$/,
        error: 'expected a redis:// or rediss:// URL such as redis://10.0.0.5:6379',
      })
      .optional(),
  ),
  // Read by the serving layer (server/cdn.mjs); checked here with the rest at build and start.
  CDN_PURGE_URL: optionalString.pipe(
    z
      .url({
        protocol: /^https?$/,
        error: 'expected an http(s) URL the CDN takes purges at, such as http://127.0.0.1:6081/',
      })
      .optional(),
  ),
  // Extra hosts `/3d-models` may fetch models from, beside Prismic's (src/lib/content/asset-hosts.ts).
  PRISMIC_ASSET_HOSTS: optionalString.transform((value, ctx) => {
    const hosts = (value ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean)
    const bad = hosts.filter((host) => !ASSET_HOST.test(host))
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `expected comma-separated host names, each with an optional port (such as 127.0.0.1:4010 or assets.example.com), got "${bad.join('", "')}"`,
      })
      return z.NEVER
    }
    return hosts
  }),
  NEXT_PUBLIC_EMAILJS_PUBLIC_KEY: optionalString,
  NEXT_PUBLIC_EMAILJS_SERVICE_ID: optionalString,
  NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID: optionalString,
  NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID: optionalString,
  NEXT_PUBLIC_EMAILJS_BLOCK_HEADLESS: booleanFlag('NEXT_PUBLIC_EMAILJS_BLOCK_HEADLESS'),
  NEXT_PUBLIC_EMAILJS_BLOCK_LIST: optionalString,
  NEXT_PUBLIC_EMAILJS_THROTTLE_MS: optionalString.transform((value, ctx) => {
    if (value === undefined) return undefined
    const ms = Number(value)
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a whole number of milliseconds such as 10000, got "${value}"`,
      })
      return z.NEVER
    }
    return ms
  }),
})

/** True when `value` is an absolute http(s) URL whose path ends in `/api/v2`. */
export function isContentApiUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && /\/api\/v2\/?$/.test(url.pathname)
  } catch {
    return false
  }
}

/** Where content comes from: the embedded content API over a folder, or a Prismic endpoint. */
export type ContentConfig =
  | { mode: 'local'; contentDir: string; accessToken?: string }
  | { mode: 'hosted'; repository: string; accessToken?: string }

/** Where mail goes: the embedded mail API, or hosted EmailJS. */
export type MailConfig = {
  mode: 'local' | 'hosted'
  publicKey: string
  serviceId: string
  templates: { contact: string; newsletter: string }
  blockHeadless: boolean
  blockList: string[]
  throttleMs: number
  outboxDir: string
  outboxToken?: string
  smtpUrl?: string
  /** The embedded mail API's account settings (local mode); EmailJS's defaults unless set. */
  api: {
    /** Accept requests without an `Origin` (EmailJS: "API for non-browser applications"). */
    allowNonBrowser: boolean
    /** Requests per second per client; 0 turns the limit off. EmailJS documents 1. */
    rateLimit: number
    /** Facet's own, for local use: store a repeated message id once. EmailJS does not. */
    dedupe: boolean
  }
}

/**
 * The origin named in canonical URLs, Open Graph and the sitemap when `SITE_URL` is unset. It
 * does not follow PORT: `SITE_URL` is inlined into the build, and a build must serve on any
 * port. The site itself works under any host name; only those absolute URLs use this.
 */
export const DEFAULT_SITE_URL = 'http://localhost:3000'

/** The validated configuration of the whole site. */
export type Config = {
  port: number
  siteUrl: string
  content: ContentConfig
  mail: MailConfig
  webhookSecret?: string
  /** The Redis that every node shares Next's cache through (server/cache-handler.mjs). */
  redisUrl?: string
  /**
   * Hosts `/3d-models` may fetch models from beside Prismic's own (`PRISMIC_ASSET_HOSTS`): a
   * standalone content API standing in for Prismic's CDN, in tests and development.
   */
  prismicAssetHosts: string[]
}

/** The ids the embedded mail API accepts in local mode; hosted mode replaces them with env. */
export const LOCAL_MAIL_IDS = {
  publicKey: 'facet-local-public-key',
  serviceId: 'facet-local',
  templates: { contact: 'contact', newsletter: 'newsletter' },
} as const

/** Thrown when the environment is invalid; its message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Facet cannot start: ${problems.length} environment variable${problems.length === 1 ? ' is' : 's are'} invalid.\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        '\nSee .env.example for every variable and what it expects.',
    )
    this.name = 'ConfigError'
  }
}

/**
 * Validates `env` and returns the site's configuration, or throws a `ConfigError` that lists
 * every problem at once.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env)
  const problems: string[] = []
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.')}: ${issue.message}`)
    }
  }

  const setEmailJs = EMAILJS_REQUIRED.filter((name) => (env[name] ?? '').trim() !== '')
  if (setEmailJs.length > 0 && setEmailJs.length < EMAILJS_REQUIRED.length) {
    for (const name of EMAILJS_REQUIRED) {
      if (!setEmailJs.includes(name)) {
        problems.push(
          `${name}: missing; hosted EmailJS needs all of ${EMAILJS_REQUIRED.join(', ')} (set ${setEmailJs.join(', ')}), or none of them for the embedded mail API`,
        )
      }
    }
  }

  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems)
  const e = parsed.data

  const content: ContentConfig = e.PRISMIC_REPOSITORY
    ? { mode: 'hosted', repository: e.PRISMIC_REPOSITORY, accessToken: e.PRISMIC_ACCESS_TOKEN }
    : {
        mode: 'local',
        contentDir: e.CONTENT_DIR ?? 'content',
        accessToken: e.PRISMIC_ACCESS_TOKEN,
      }

  const hostedMail = setEmailJs.length === EMAILJS_REQUIRED.length
  const mail: MailConfig = {
    mode: hostedMail ? 'hosted' : 'local',
    publicKey: hostedMail ? e.NEXT_PUBLIC_EMAILJS_PUBLIC_KEY! : LOCAL_MAIL_IDS.publicKey,
    serviceId: hostedMail ? e.NEXT_PUBLIC_EMAILJS_SERVICE_ID! : LOCAL_MAIL_IDS.serviceId,
    templates: hostedMail
      ? {
          contact: e.NEXT_PUBLIC_EMAILJS_CONTACT_TEMPLATE_ID!,
          newsletter: e.NEXT_PUBLIC_EMAILJS_NEWSLETTER_TEMPLATE_ID!,
        }
      : { ...LOCAL_MAIL_IDS.templates },
    blockHeadless: e.NEXT_PUBLIC_EMAILJS_BLOCK_HEADLESS ?? false,
    blockList: (e.NEXT_PUBLIC_EMAILJS_BLOCK_LIST ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean),
    throttleMs: e.NEXT_PUBLIC_EMAILJS_THROTTLE_MS ?? 0,
    outboxDir: e.OUTBOX_DIR ?? '.data/outbox',
    outboxToken: e.OUTBOX_TOKEN,
    smtpUrl: e.SMTP_URL,
    api: {
      allowNonBrowser: e.MAIL_API_ALLOW_NON_BROWSER ?? false,
      rateLimit: e.MAIL_API_RATE_LIMIT ?? 1,
      dedupe: e.MAIL_API_DEDUPE ?? false,
    },
  }

  return {
    port: e.PORT,
    siteUrl: (e.SITE_URL ?? DEFAULT_SITE_URL).replace(/\/+$/, ''),
    content,
    mail,
    webhookSecret: e.PRISMIC_WEBHOOK_SECRET,
    redisUrl: e.REDIS_URL,
    prismicAssetHosts: e.PRISMIC_ASSET_HOSTS,
  }
}

let cached: Config | undefined

/** The configuration of this process, validated once. */
export function getConfig(): Config {
  cached ??= loadConfig()
  return cached
}
