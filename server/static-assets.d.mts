import type { IncomingMessage, ServerResponse } from 'node:http'

/** The content types of the assets the build compresses, by extension. */
export const COMPRESSIBLE_TYPES: Record<string, string>
/** Every file under `dir`, depth first; none when it does not exist. */
export function filesUnder(dir: string): string[]
/** Whether an Accept-Encoding header accepts Brotli. */
export function acceptsBrotli(header: string | string[] | undefined): boolean
/** Prerendered route answers that never change and compress: URL path, body file, headers. */
export function immutableRouteBodies(
  distDir: string,
): { urlPath: string; body: string; headers: Record<string, unknown> }[]
/**
 * Serves `/_next/static/…` and the prerendered immutable answers from the Brotli copies; false
 * when Next.js should answer.
 */
export function createStaticHandler(
  distDir?: string,
): (req: IncomingMessage, res: ServerResponse) => boolean
