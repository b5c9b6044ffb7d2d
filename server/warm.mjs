// Readiness waits for warmth: the node's warm-up (src/lib/content/warm-up.ts, started by the
// instrumentation hook inside Next.js) loads the content store and the route index, and shares
// its state on globalThis under this key (src/lib/content/warm.ts). Until it is warm, `/readyz`
// answers 503, so a load balancer sends no visitor to a node that would make them wait for it.

const WARM_STATE_KEY = Symbol.for('facet.warm')
const WARM_GATE_KEY = Symbol.for('facet.warm.gate')

/**
 * Holds the warm-up (started inside Next.js as it prepares) until the returned function is
 * called: the server calls it once it listens, so the content store, whose load blocks the
 * event loop, is never read before the port is open (src/lib/content/warm.ts).
 */
export function holdWarmUp() {
  let release
  globalThis[WARM_GATE_KEY] = new Promise((resolve) => (release = resolve))
  return () => release()
}

function state() {
  return globalThis[WARM_STATE_KEY]
}

/** The readiness check: resolves once warm; throws why not (and retries a failed warm-up). */
export async function warmCheck() {
  const current = state()
  if (current?.status === 'warm') return
  if (current?.status === 'failed') {
    const error = current.error
    current.retry?.()
    throw new Error(`warm-up failed (${error}); trying again`)
  }
  throw new Error(current ? 'warming up: loading the content and the route index' : 'starting')
}

/** What `/readyz` shows of the warm-up: its state, its time and how often each part loaded. */
export function warmInfo() {
  const current = state()
  if (!current) return { status: 'cold' }
  const { status, warmMs, loads } = current
  return { status, warmMs, loads: { ...loads } }
}
