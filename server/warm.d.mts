/** The readiness check: resolves once the node is warm; throws why not. */
export function warmCheck(): Promise<void>
/** The warm-up's state, time and load counts, as `/readyz` shows them. */
export function warmInfo(): {
  status: string
  warmMs?: number
  loads?: { content: number; routeIndex: number }
}
/** Holds the warm-up until the returned function is called (once the server listens). */
export function holdWarmUp(): () => void
