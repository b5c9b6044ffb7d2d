/**
 * Runs once as a Next.js server starts (not while it builds): the node starts loading what its
 * first requests need, and reports ready only when that is done (src/lib/content/warm-up.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  if (process.env.NEXT_PHASE === 'phase-production-build') return
  const { warmUp } = await import('@/lib/content/warm-up')
  warmUp()
}
