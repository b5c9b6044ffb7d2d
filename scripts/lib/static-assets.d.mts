export const COMPILE_HINT: string
/** The scripts that pages load before any interaction, relative to the build folder. */
export function initialScriptFiles(distDir: string): string[]
/** Adds the compile hint to the initial scripts and writes Brotli copies of the static assets. */
export function finishBuild(distDir?: string): {
  hinted: string[]
  compressed: number
  bytes: number
  brotliBytes: number
}
/** A line saying what finishBuild() did. */
export function describeFinishedBuild(result: ReturnType<typeof finishBuild>): string
