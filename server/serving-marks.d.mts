/** Marks `distDir` as served by this process until it exits. */
export function markServing(distDir: string, pid?: number): void
/** The live processes, other than this one, that serve `distDir`. */
export function liveServers(distDir: string): number[]
