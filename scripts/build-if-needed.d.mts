type Env = Record<string, string | undefined>
/** Thrown when a build cannot run now. */
export class BuildRefused extends Error {}
/** A digest of the settings inlined into the build (never PORT). */
export function buildSettings(env?: Env): string
/** Why the build cannot serve with `env`, or undefined. */
export function rebuildReason(env?: Env, options?: { cwd?: string }): string | undefined
/** Makes the production build. */
export function build(env?: Env): void
/** Builds when needed; returns whether it built. */
export function buildIfNeeded(env?: Env): boolean
/** Runs `work`, turning a refused build into its message and exit code 1. */
export function exitOnRefusal<T>(work: () => T): T
