import type { IncomingMessage, ServerResponse } from 'node:http'

export const LIVENESS_PATH: string
export const READINESS_PATH: string
/** The liveness and readiness probes. */
export function createHealth(): {
  addCheck(name: string, check: () => Promise<unknown>): void
  addInfo(name: string, info: () => unknown): void
  drain(): void
  answer(req: IncomingMessage, res: ServerResponse): boolean
}
