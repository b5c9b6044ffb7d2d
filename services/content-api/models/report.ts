import { readFile } from 'node:fs/promises'
import { mediaHash } from '../images/version'
import { metres } from '../models-check'
import { inspectModel, inspectModelAndSize, type ModelStats } from './inspect'
import { TIER_BUDGETS, tierParams } from './params'
import { createModelVariants, type ModelVariants } from './variants'

/**
 * What `content:check` and `prismic:push` tell an editor about each model: its bytes, triangles
 * and texture sizes, as uploaded and as each tier gets it, and a warning naming the file when
 * even its high-tier variant is over the high tier's budget (docs/3d-models.md). The variants
 * come from the model cache the server uses (made here when missing, so the server finds them).
 */

/** One model's report. */
export type ModelReport = {
  /** The file, as the editor knows it (`models/vessel.glb`). */
  name: string
  source: ModelStats
  variants: { low: ModelStats; high: ModelStats } | null
  /** One line for the console. */
  line: string
  /** Set when even the high tier's variant is over its budget, or the model cannot be made. */
  warning?: string
}

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/** `1.2 MB, 11,728 triangles, textures 1024×1024 jpeg` */
export function describeStats(stats: ModelStats): string {
  const textures = stats.textures.length
    ? `textures ${stats.textures.map((t) => `${t.width}×${t.height} ${t.mimeType.replace('image/', '')}`).join(', ')}`
    : 'no textures'
  return `${mb(stats.bytes)}, ${stats.triangles.toLocaleString('en')} triangles, ${textures}`
}

/** Why `high` (a high-tier variant's stats) is over the high tier's budget, or null. */
export function overHighBudget(high: ModelStats): string | null {
  const budget = TIER_BUDGETS.high
  const over: string[] = []
  if (high.bytes > budget.maxBytes) over.push(`${mb(high.bytes)} over ${mb(budget.maxBytes)}`)
  if (high.gpuTextureBytes > budget.maxGpuTextureBytes)
    over.push(`${mb(high.gpuTextureBytes)} of texture memory over ${mb(budget.maxGpuTextureBytes)}`)
  if (high.triangles > budget.maxTriangles)
    over.push(
      `${high.triangles.toLocaleString('en')} triangles over ${budget.maxTriangles.toLocaleString('en')}`,
    )
  return over.length ? over.join(', ') : null
}

/** Reports each model file (absolute paths; `name` says how to show each). */
export async function reportModels(
  files: readonly { file: string; name: string }[],
  variants: ModelVariants = createModelVariants(),
): Promise<ModelReport[]> {
  const reports: ModelReport[] = []
  for (const { file, name } of files) {
    const bytes = await readFile(file)
    let source: ModelStats
    let label = name
    try {
      // Its size in metres, as AR shows it (content:check refuses one no real object has).
      const { stats, size } = await inspectModelAndSize(bytes)
      source = stats
      if (size) label = `${name} (${size.map(metres).join(' × ')})`
    } catch {
      continue // content:check names a model that does not read (../models-check.ts).
    }
    const input = { id: mediaHash(file) ?? file, bytes: async () => bytes }
    try {
      const [low, high] = await Promise.all(
        (['low', 'high'] as const).map(async (tier) =>
          inspectModel(await variants.make(tierParams(tier), input)),
        ),
      )
      const over = overHighBudget(high!)
      reports.push({
        name,
        source,
        variants: { low: low!, high: high! },
        line: `${label}: ${describeStats(source)}; low tier ${describeStats(low!)}; high tier ${describeStats(high!)}`,
        warning: over
          ? `${name} is over the high tier's budget even after optimization: ${over}`
          : undefined,
      })
    } catch (error) {
      reports.push({
        name,
        source,
        variants: null,
        line: `${label}: ${describeStats(source)}`,
        warning: `${name}: no variant could be made: ${(error as Error).message}`,
      })
    }
  }
  return reports
}
