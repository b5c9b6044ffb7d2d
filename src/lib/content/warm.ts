/**
 * Whether this node has loaded what its first requests need (the content store in local mode,
 * the route index of the proxy), and how many times each was loaded. The production server's
 * readiness probe answers 200 only once the node is warm (server/warm.mjs), and shows the counts,
 * so a test can tell that a page after ready was served without loading anything again.
 *
 * Kept on `globalThis`: Next.js bundles the proxy, the pages and the instrumentation hook apart,
 * each with its own copy of this module, and they must share one state per process.
 */
export type WarmState = {
  status: 'cold' | 'warming' | 'warm' | 'failed'
  /** Why the last warm-up failed. */
  error?: string
  /** How long the warm-up took, once warm. */
  warmMs?: number
  /** Loads of the embedded content store and of the route index since the process started. */
  loads: { content: number; routeIndex: number }
  /** Starts the warm-up again after a failure (the readiness check calls it). */
  retry?: () => void
}

/** The key the server reads the state under (server/warm.mjs). */
export const WARM_STATE_KEY = Symbol.for('facet.warm')

/**
 * The key of a promise the warm-up waits for before it loads anything. The production server
 * (server/index.mjs) sets one before Next.js starts and resolves it once it listens, so the
 * warm-up (which blocks the event loop while it reads the content store) never runs before the
 * port is open: a probe then always meets a node that is warming, never a closed port followed
 * by a node already warm. Under `next start` there is none, and the warm-up starts at once.
 */
export const WARM_GATE_KEY = Symbol.for('facet.warm.gate')

/** What the warm-up waits for before it starts: the server's gate, if it set one. */
export function warmGate(): Promise<void> | undefined {
  return (globalThis as { [WARM_GATE_KEY]?: Promise<void> })[WARM_GATE_KEY]
}

/** This process's warm state. */
export function warmState(): WarmState {
  const holder = globalThis as { [WARM_STATE_KEY]?: WarmState }
  holder[WARM_STATE_KEY] ??= { status: 'cold', loads: { content: 0, routeIndex: 0 } }
  return holder[WARM_STATE_KEY]
}
