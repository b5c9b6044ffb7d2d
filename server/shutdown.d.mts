import type { Server } from 'node:http'

export const DEFAULT_DRAIN_MS: number
/** Stops accepting, lets requests in flight finish (at most `timeoutMs`), then resolves. */
export function closeGracefully(
  server: Server,
  options?: { timeoutMs?: number },
): Promise<{ forced: boolean }>
/** Drains `server` on the first SIGTERM or SIGINT, then exits. */
export function drainOnSignals(
  server: Server,
  options?: {
    timeoutMs?: number
    onDrain?: () => void
    exit?: (code: number) => void
    log?: Pick<Console, 'log' | 'warn'>
  },
): void
