import { TIERS, tierParams } from './params'
import type { ModelSource, ModelVariants } from './variants'

/**
 * Warming: the variants of the models that documents reference, made ahead of visitors (at
 * build, and on publish through the webhook), both tiers, one render at a time in the model
 * lane's turn. A model that fails is named in the log and skipped: a visitor asking for it gets
 * what the route gives (the limit's error, or the original bytes when its render failed).
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

/** What a warm run did. */
export type WarmReport = { models: number; made: number; failed: string[] }

/** Makes (or finds cached) both tiers' variants of each source, one after another. */
export async function warmVariants(
  variants: ModelVariants,
  sources: readonly (ModelSource & { name: string })[],
): Promise<WarmReport> {
  const before = variants.stats().made
  const failed: string[] = []
  for (const source of sources)
    for (const tier of TIERS)
      await variants.make(tierParams(tier), source).catch((error: Error) => {
        failed.push(`${source.name} (${tier}): ${error.message}`)
      })
  for (const line of failed) console.error(`model variants: ${line}`)
  return { models: sources.length, made: variants.stats().made - before, failed }
}
