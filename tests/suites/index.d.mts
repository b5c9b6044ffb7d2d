/** One stage of `npm test` (tests/suites/index.mjs). */
export type Stage = {
  name: string
  about: string
  afterBuild?: boolean
  /** Runs from the start of `npm test`, beside the other stages. */
  beside?: boolean
  /** Starts at the start of `npm test`; the stage waits for it, then runs with its `env`. */
  prepare?: { about: string; bin: string; args: string[]; env: Record<string, string> }
  /** Also run by `npm run test:quick`. */
  quick?: boolean
} & (
  | { kind: 'check'; bin: string; args: string[] }
  | { kind: 'vitest' | 'playwright'; config: string }
  | { kind: 'build' }
)
/** Every stage `npm test` runs, in order. */
export const stages: Stage[]
