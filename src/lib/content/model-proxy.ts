import { createHash } from 'node:crypto'
import { getConfig } from '@/lib/config'
import { allowedAssets, assetScope, isAssetUrl, type AssetScope } from '@/lib/content/asset-hosts'
// The variants' service only: the pipeline itself (glTF-Transform) runs in its child process.
import { MODEL_MAX_BYTES, ModelRefused } from '@services/content-api/models/limits'
import { parseModelParams, type ModelPlacement } from '@services/content-api/models/params'
import { notGltf } from '@services/content-api/models/sniff'
import {
  createModelVariants,
  modelErrorResponse,
  type ModelSource,
  type ModelVariants,
  type ModelVariantsOptions,
} from '@services/content-api/models/variants'
import { warmVariants } from '@services/content-api/models/warm'
import {
  ENVIRONMENT_TYPES,
  environmentFormat,
  makeEnvironmentVariant,
  parseEnvironmentParams,
} from '@services/content-api/environments/variants'
import { ENVIRONMENT_FILES } from '@rules/look'

/**
 * `/3d-models?src=<a Prismic asset URL>[&tier=low|high]`: models on Prismic's asset CDN served
 * from the site's own origin, so the renderer can ask for a variant as it does of the embedded
 * media (docs/3d-models.md); and their environments (an `.hdr`, `.jpg`, `.png` or `.avif`, with
 * `&sky=1` for a backdrop's size). Never an open proxy: only the site's repository's files on
 * Prismic's asset hosts, and the hosts PRISMIC_ASSET_HOSTS adds, are fetched (./asset-hosts.ts),
 * each redirect is checked again, and only glTF and environment files are served. The source's
 * bytes are kept in the model cache, so the original and every size cost one fetch.
 */

/** How many redirects a fetch follows (each to an allowed host) before it gives up. */
const MAX_REDIRECTS = 3
/** How long a fetch from Prismic may take, headers and body. */
const FETCH_TIMEOUT_MS = 30_000

/**
 * Facet's choice: a Prismic asset URL names one upload (replacing a file in the media library
 * makes a new URL, and a deleted file stays at its URL), so every answer of this route is as
 * long-lived as a versioned media URL.
 */
const CACHING = { 'Cache-Control': 'public, max-age=31536000, immutable' }

export type ModelProxyOptions = {
  /** What may be fetched: the site's repository on Prismic, and `PRISMIC_ASSET_HOSTS`. */
  scope?: AssetScope
  /** The variants' cache, lane and renderer; the site's defaults when absent. */
  variants?: ModelVariantsOptions
}

const refuse = (status: ModelRefused['status'], message: string) =>
  new ModelRefused(status, message)

/** The bytes at `src`, fetched from allowed hosts only and checked to be glTF. */
export function fetchModel(src: URL, scope: AssetScope): Promise<Uint8Array> {
  return fetchAsset(src, scope, (bytes) => {
    const problem = notGltf(bytes)
    return problem && `not a glTF model: ${problem}`
  })
}

/**
 * The bytes at `src`, fetched from allowed hosts only, each redirect checked again, at most
 * MODEL_MAX_BYTES; refused (422) when `check` names a problem with them.
 */
async function fetchAsset(
  src: URL,
  scope: AssetScope,
  check: (bytes: Uint8Array) => string | null,
): Promise<Uint8Array> {
  let url = src
  for (let hop = 0; ; hop++) {
    if (!isAssetUrl(url, scope)) throw notAllowed(url, scope, hop > 0)
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    }).catch((error: Error) => {
      throw refuse(502, `the model could not be fetched from ${url.host}: ${error.message}`)
    })
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      if (hop >= MAX_REDIRECTS)
        throw refuse(502, `the model's host redirected more than ${MAX_REDIRECTS} times`)
      url = new URL(location, url)
      continue
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw refuse(502, `the model's host answered ${response.status} for ${url.href}`)
    }
    const bytes = await readCapped(response)
    const problem = check(bytes)
    if (problem) throw refuse(422, problem)
    return bytes
  }
}

/** The refusal of `url`, which is not the site's repository's nor on an added host. */
function notAllowed(url: URL, scope: AssetScope, redirected = false): ModelRefused {
  return refuse(
    403,
    `${redirected ? 'redirected to' : 'src is'} ${url.origin}${url.pathname}, which is not a file of the site's Prismic repository nor on a host PRISMIC_ASSET_HOSTS adds (allowed: ${allowedAssets(scope)})`,
  )
}

/** The body, refused (413) as soon as it is over MODEL_MAX_BYTES. */
async function readCapped(response: Response): Promise<Uint8Array> {
  const tooLarge = (bytes: number) =>
    refuse(
      413,
      `model too large: ${Math.ceil(bytes / 2 ** 20)} MB over the ${MODEL_MAX_BYTES / 2 ** 20} MB limit (MODEL_MAX_BYTES)`,
    )
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (declared > MODEL_MAX_BYTES) {
    await response.body?.cancel()
    throw tooLarge(declared)
  }
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of response.body ?? []) {
    length += chunk.byteLength
    if (length > MODEL_MAX_BYTES) throw tooLarge(length)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** The route's handler, with its own variants service (the lane is the process's). */
export function createModelProxy({ scope = {}, variants: options }: ModelProxyOptions = {}) {
  const variants: ModelVariants = createModelVariants(options)

  const source = (src: URL): ModelSource => {
    const id = `url:${src.href}`
    const key = `source-${createHash('sha256').update(id).digest('base64url').slice(0, 32)}.bin`
    return {
      id,
      name: src.href,
      bytes: async () =>
        variants.cache().get(key, async () => Buffer.from(await fetchModel(src, scope))),
    }
  }

  /**
   * An environment file (rules/look.ts) at the size its query asks for (`tier`, `sky`), or as
   * it is: its bytes kept with the models' sources, each size made once.
   */
  const environment = async (src: URL, query: URLSearchParams): Promise<Response> => {
    const id = `environment:${src.href}`
    const hash = createHash('sha256').update(id).digest('base64url').slice(0, 32)
    const bytes = await variants
      .cache()
      .get(`source-${hash}.bin`, async () =>
        Buffer.from(
          await fetchAsset(src, scope, (bytes) =>
            environmentFormat(bytes)
              ? null
              : 'not an environment: a Radiance HDR, JPEG, PNG or AVIF',
          ),
        ),
      )
    const format = environmentFormat(bytes)!
    const params = parseEnvironmentParams(query)
    const body = params
      ? await variants
          .cache()
          .get(`environment-${hash}-${params.tier}${params.sky ? '-sky' : ''}.bin`, async () =>
            Buffer.from((await makeEnvironmentVariant(bytes, params)).body),
          )
      : bytes
    return new Response(new Uint8Array(body), {
      headers: {
        ...CACHING,
        'Content-Type': ENVIRONMENT_TYPES[format],
        'Content-Length': String(body.byteLength),
      },
    })
  }

  const handle = async (request: Request): Promise<Response> => {
    const query = new URL(request.url).searchParams
    const raw = query.get('src')
    try {
      if (!raw) throw refuse(400, 'missing src: the absolute URL of a model on Prismic')
      if (!URL.canParse(raw)) throw refuse(400, `invalid src "${raw}": expected an absolute URL`)
      const src = new URL(raw)
      if (!isAssetUrl(src, scope)) throw notAllowed(src, scope)
      if (ENVIRONMENT_FILES.test(src.pathname)) return await environment(src, query)
      const params = parseModelParams(query)
      if (params) return await variants.serve(request, params, source(src), CACHING)
      const body = await source(src).bytes()
      const json = body[0] === 0x7b
      return new Response(new Uint8Array(body), {
        headers: {
          ...CACHING,
          'Content-Type': json ? 'model/gltf+json' : 'model/gltf-binary',
          'Content-Length': String(body.byteLength),
          // three's FileLoader reads it for the viewer's progress, before Content-Length.
          'X-File-Size': String(body.byteLength),
        },
      })
    } catch (error) {
      return modelErrorResponse(error)
    }
  }

  /**
   * Makes the variants of each model URL (on an allowed host), one after another: both tiers, and
   * the AR files for the placements `ar` names (`arModelLinks`).
   */
  const warm = (
    urls: readonly string[],
    ar: ReadonlyMap<string, readonly ModelPlacement[]> = new Map(),
  ) =>
    warmVariants(
      variants,
      urls
        .filter((url) => URL.canParse(url) && isAssetUrl(new URL(url), scope))
        .map((url) => ({ name: url, ...source(new URL(url)), ar: ar.get(url) })),
    )

  return { handle, variants, warm }
}

const KEY = Symbol.for('facet.model-proxy')

/**
 * The site's one proxy, on `globalThis`: the route and the webhook (which warms it) are bundled
 * apart, and must share one cache index and one lane.
 */
export function getModelProxy(): ReturnType<typeof createModelProxy> {
  const holder = globalThis as { [KEY]?: ReturnType<typeof createModelProxy> }
  return (holder[KEY] ??= createModelProxy({ scope: assetScope(getConfig()) }))
}
