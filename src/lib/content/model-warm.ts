import { getConfig } from '@/lib/config'
import { getEmbeddedContentApi } from '@/lib/content/embedded'
import { getModelProxy } from '@/lib/content/model-proxy'
import { createUncachedClient } from '@/prismicio'
import { arModelLinks, modelLinks, type WarmReport } from '@services/content-api/models/warm'

/**
 * Makes the variants (both tiers, and the AR files where a viewer offers AR) of every model the
 * published documents link to, so a visitor
 * rarely meets a cold one: the embedded media's in local mode, `/3d-models`' in hosted mode.
 * The webhook starts it after a publish without waiting for it; the build runs its own
 * (scripts/models/warm.ts). One render at a time, in the model lane's turn.
 */
export async function warmModelVariants(): Promise<WarmReport> {
  if (getConfig().content.mode === 'local') return getEmbeddedContentApi().warmModels()
  const documents = await createUncachedClient().dangerouslyGetAll()
  return getModelProxy().warm(modelLinks(documents), arModelLinks(documents))
}

let running: Promise<unknown> | undefined
let again = false

/**
 * Starts a warm run in the background and returns at once. A publish during a run asks for one
 * more run after it (the content may have changed), never for two at a time.
 */
export function startModelWarming(): void {
  if (running) {
    again = true
    return
  }
  running = warmModelVariants()
    .catch((error: Error) => console.error('model variants: warming failed:', error.message))
    .finally(() => {
      running = undefined
      if (again) {
        again = false
        startModelWarming()
      }
    })
}
