/** One stage of `npm test` (tests/suites/index.mjs). */
export type Stage = { name: string; about: string; afterBuild?: boolean } & (
  | { kind: 'check'; bin: string; args: string[] }
  | { kind: 'vitest' | 'playwright'; config: string }
  | { kind: 'build' }
)
/** Every stage `npm test` runs, in order. */
export const stages: Stage[]
