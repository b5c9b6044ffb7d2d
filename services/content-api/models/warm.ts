import { paramsKey, tierParams, usdzParams, type ModelParams, type ModelPlacement } from './params'
import type { ModelSource, ModelVariants } from './variants'

/**
 * Warming: the variants of the models that documents reference, made ahead of visitors (at
 * build, and on publish through the webhook), both tiers, one render at a time in the model
 * lane's turn; and for a model whose viewer offers AR, the files the phones' AR viewers fetch
 * (the `ar` tier's GLB, and its USDZ with the slice's placement). A model that fails is named in
 * the log and skipped: a visitor asking for it gets what the route gives (the limit's error, or
 * the original bytes when its render failed); one that cannot be made into USDZ gets no AR
 * Quick Look link.
 */

/** The URLs of the glTF models that Link to Media fields in `documents` point at. */
export function modelLinks(documents: readonly unknown[]): string[] {
  const found = new Set<string>()
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (value && typeof value === 'object') {
      const field = value as { link_type?: unknown; url?: unknown }
      if (field.link_type === 'Media' && typeof field.url === 'string') {
        const pathname = field.url.split(/[?#]/)[0]!
        if (/\.(glb|gltf)$/i.test(pathname)) found.add(field.url)
      }
      for (const child of Object.values(value)) walk(child)
    }
  }
  walk(documents)
  return [...found].sort()
}

/**
 * The placements of the models that model viewer slices offer in AR (`ar` on), by the URL of the
 * Link to Media field, as `modelLinks` names it.
 */
export function arModelLinks(documents: readonly unknown[]): Map<string, ModelPlacement[]> {
  const found = new Map<string, Set<ModelPlacement>>()
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (value && typeof value === 'object') {
      const slice = value as {
        slice_type?: unknown
        primary?: { ar?: unknown; ar_placement?: unknown; model?: { url?: unknown } }
      }
      const url = slice.primary?.model?.url
      if (
        slice.slice_type === 'model_viewer' &&
        slice.primary?.ar === true &&
        typeof url === 'string'
      ) {
        const placements = found.get(url) ?? new Set()
        placements.add(slice.primary.ar_placement === 'wall' ? 'wall' : 'floor')
        found.set(url, placements)
      }
      for (const child of Object.values(value)) walk(child)
    }
  }
  walk(documents)
  return new Map([...found].map(([url, placements]) => [url, [...placements].sort()]))
}

/** A model to warm: its source, and the AR placements its viewers offer (none: no AR files). */
export type WarmSource = ModelSource & { name: string; ar?: readonly ModelPlacement[] }

/** The variants warmed for a source: both tiers; with AR, the `ar` GLB and each USDZ placement. */
export function warmedParams(source: WarmSource): ModelParams[] {
  const params = [tierParams('low'), tierParams('high')]
  if (source.ar?.length) params.push(tierParams('ar'), ...source.ar.map((p) => usdzParams(p)))
  return params
}

/** What a warm run did. */
export type WarmReport = { models: number; made: number; failed: string[] }

/**
 * Makes (or finds cached) the variants of each source (`warmedParams`), one after another. A
 * model that cannot be made into USDZ gets one line naming the file and the reason.
 */
export async function warmVariants(
  variants: ModelVariants,
  sources: readonly WarmSource[],
): Promise<WarmReport> {
  const before = variants.stats().made
  const failed: string[] = []
  for (const source of sources)
    for (const params of warmedParams(source))
      await variants.make(params, source).catch((error: Error) => {
        failed.push(`${source.name} (${paramsKey(params)}): ${error.message}`)
      })
  for (const line of failed) console.error(`model variants: ${line}`)
  return { models: sources.length, made: variants.stats().made - before, failed }
}
