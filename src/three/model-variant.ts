// Which file the renderer fetches for a model: the variant made for its tier, as Prismic's CDN
// serves each image at the size the device asks for. Any model URL on the site's own origin
// (the embedded API's media, and `/3d-models?src=…` for models on Prismic's asset CDN) answers
// `?tier=low|high` with a GLB optimized for that tier (docs/3d-models.md); without `tier`, the
// file as uploaded. A URL of another origin is fetched as it is: no server there knows the
// parameter. Plain code, no three.js: the bridge, the renderer and the tests share it.

/** The renderer's quality tier, measured by its GPU probe (render/resolution.ts). */
export type ModelTier = 'high' | 'low'

/** The query parameter that names a variant's tier. */
export const TIER_PARAM = 'tier'

/**
 * What the renderer fetches: `tier`, the variant of the tier it measured (the default); the
 * original (`?debug3d=original`); or the variant of a named tier whatever it measured
 * (`?debug3d=tier-low`, `tier-high`: tests compare them from one camera, on one renderer).
 */
export type ModelChoice = 'tier' | 'original' | ModelTier

/**
 * `url` with `tier=<tier>` when it is of `base`'s origin (base: the page's URL; `url` may be
 * relative to it), or without any `tier` when `tier` is null (the original). `ar` names the
 * variant for a phone's AR viewer (src/lib/ar.ts). Any other URL (another
 * origin, `data:`, `blob:`, or one that does not parse) is returned as it is. The rest of the query
 * is kept as written (a media URL's `v=<hash>`, `/3d-models`'s `src`), `tier` goes last.
 */
export function variantUrl(url: string, tier: ModelTier | 'ar' | null, base: string): string {
  if (!URL.canParse(url, base) || !URL.canParse(base)) return url
  const parsed = new URL(url, base)
  const page = new URL(base)
  if (!/^https?:$/.test(parsed.protocol) || parsed.origin !== page.origin) return url
  // The query as written, less any `tier` it already carries (an editor's link, or a reload).
  const kept = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair && paramName(pair) !== TIER_PARAM)
  if (tier) kept.push(`${TIER_PARAM}=${tier}`)
  parsed.search = kept.length ? `?${kept.join('&')}` : ''
  return parsed.href
}

/** A query pair's name, decoded as URLSearchParams would (a malformed escape stays as written). */
function paramName(pair: string): string {
  const name = pair.split('=')[0]!.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/** The URL the renderer fetches for `url`, by the debug choice and the tier it measured. */
export function modelUrlFor(
  url: string,
  choice: ModelChoice,
  measured: ModelTier,
  base: string,
): string {
  if (choice === 'original') return variantUrl(url, null, base)
  return variantUrl(url, choice === 'tier' ? measured : choice, base)
}

/** The query parameter that asks an environment file for the size a backdrop needs. */
export const SKY_PARAM = 'sky'

/**
 * The URL the renderer fetches for an environment file (look.ts): the variant for its tier, as a
 * model's, and `sky=1` when the environment also shows behind the model (a backdrop needs more
 * pixels than light does: services/content-api/environments/). Another origin's URL as it is.
 */
export function environmentUrlFor(
  url: string,
  measured: ModelTier,
  skybox: boolean,
  base: string,
): string {
  const variant = variantUrl(url, measured, base)
  // Another origin's file has no `tier`: nothing there sizes it.
  if (!skybox || !variant.includes(`${TIER_PARAM}=`)) return variant
  return `${variant}&${SKY_PARAM}=1`
}
