import { getConfig } from '@/lib/config'
import { getEmbeddedContentApi } from '@/lib/content/embedded'
import { siteRouteIndex } from '@/lib/content/site-route-index'
import { warmGate, warmState } from '@/lib/content/warm'

/**
 * Loads what a node's first requests need: the embedded content store (local mode) and the
 * proxy's route index. Started by the instrumentation hook as the server starts, and again by
 * the readiness check after a failure (a content API that was unreachable at start). Without it,
 * the first visitor paid for both: 11 s at 2,000 documents.
 */
export function warmUp(): void {
  const state = warmState()
  if (state.status === 'warming' || state.status === 'warm') return
  state.status = 'warming'
  state.retry = warmUp
  // After the current turn, and once the server listens (its gate): meanwhile it answers its
  // probes 503.
  setImmediate(async () => {
    try {
      await warmGate()
      // Timed from here: the load itself, not the wait for the port.
      const started = performance.now()
      if (getConfig().content.mode === 'local') getEmbeddedContentApi()
      await siteRouteIndex().warm()
      state.warmMs = Math.round(performance.now() - started)
      state.error = undefined
      state.status = 'warm'
    } catch (error) {
      state.error = error instanceof Error ? error.message : String(error)
      state.status = 'failed'
    }
  })
}
