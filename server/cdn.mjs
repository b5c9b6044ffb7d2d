// The CDN in front of the site (docs/deploy.md, "A CDN in front"): what it may keep is tagged,
// and a publish purges it.
//
// Pages keep the long shared lifetime Next.js gives them (`s-maxage=31536000`): a CDN serves
// them without asking the origin until content is published. Every answer built from content
// carries the tag `prismic` (`Surrogate-Key` for Varnish and Fastly, `Cache-Tag` for Cloudflare),
// and a successful `/api/revalidate` (Prismic's webhook) purges that tag at the CDN through
// `CDN_PURGE_URL`, after the origin is fresh. Chosen over a short `s-maxage` with
// `stale-while-revalidate`: that makes every page cost the origin a request per edge per
// lifetime, and still shows a publish only after the lifetime and one more visit; a purge shows
// it at once and keeps the CDN's hit rate.
//
// The purge goes out twice: at once, and again `settleMs` (2 s) later. Between the two, the
// other nodes of the site catch up (their kept pages live 1 s, server/page-cache.mjs; their
// Next.js sees the purge through Redis at once), and a CDN that fetched from a node not yet
// fresh in that window drops what it got.

/** The tag on everything built from content: the one the webhook purges. */
export const CONTENT_TAG = 'prismic'

/** The second purge, after the origin has settled. */
export const DEFAULT_PURGE_SETTLE_MS = 2_000

/** How long a purge request may take before it counts as failed. */
const PURGE_TIMEOUT_MS = 5_000

/**
 * Paths whose answers are not built from content, or name their bytes: never tagged. Build
 * assets carry a hash in their names; media carry `v=<hash>` (services/content-api/images/
 * version.ts); the API routes, the embedded mail API and the probes are never cached.
 */
const UNTAGGED = /^\/(?:_next\/|api\/|local\/|healthz$|readyz$)/

/** Tags the answer to `req` when a CDN may keep it and content changes it. */
export function tagForCdn(req, res, pathname) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return
  if (UNTAGGED.test(pathname)) return
  res.setHeader('Surrogate-Key', CONTENT_TAG)
  res.setHeader('Cache-Tag', CONTENT_TAG)
}

/**
 * The purge Varnish's configuration (docs/cdn/varnish.vcl) answers: `PURGE <url>` with the tags
 * in `Surrogate-Key`, separated by spaces; any 2xx is success. (PURGE rather than Varnish's
 * customary BAN: a relay in front of a hosted CDN's API can be any HTTP server, and Node's, for
 * one, refuses methods it does not know with 400.) A hosted CDN takes another `send` of the same
 * shape, `(url, tags) => Promise<void>` (docs/deploy.md gives Fastly's and Cloudflare's).
 */
export async function purgeByTag(url, tags) {
  const response = await fetch(url, {
    method: 'PURGE',
    headers: { 'Surrogate-Key': tags.join(' ') },
    signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
  })
  await response.body?.cancel()
  if (!response.ok) throw new Error(`${url} answered ${response.status} to PURGE`)
}

/**
 * The CDN purge, or undefined without `url` (no CDN, or one that keeps pages briefly).
 * `purge(tags)` sends it at once and again after `settleMs`; failures are logged, never thrown:
 * the origin is purged whatever the CDN says.
 */
export function createCdnPurge({
  url,
  send = purgeByTag,
  settleMs = DEFAULT_PURGE_SETTLE_MS,
  log = console,
} = {}) {
  if (!url) return undefined
  const once = (tags) =>
    send(url, tags).then(
      () => true,
      (error) => {
        log.error(
          `CDN purge of ${tags.join(', ')} through ${url} failed: ${error?.message ?? error}`,
        )
        return false
      },
    )
  return {
    purge(tags = [CONTENT_TAG]) {
      const first = once(tags)
      const second = new Promise((resolve) => {
        setTimeout(() => resolve(once(tags)), settleMs).unref()
      })
      return Promise.all([first, second]).then(([a, b]) => a && b)
    },
  }
}
