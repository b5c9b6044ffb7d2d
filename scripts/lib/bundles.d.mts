type Sized = { src: string; gzip: number; wire: number }

/** Each prerendered page's initial JS and the 3D's scripts, from the build on disk. */
export function measureBundles(): {
  floorGzip: number
  threeChunks: { src: string; gzip: number }[]
  threeGzip: number
  worker: {
    chunks: Sized[]
    gzip: number
    wire: number
    /** Each scene kind's chunk, beyond the first scripts (a file two kinds share in each). */
    scenes: { models: { gzip: number; wire: number }; generated: { gzip: number; wire: number } }
    lazy: Sized[]
    lazyTotal: { gzip: number; wire: number }
  }
  pages: { route: string; totalGzip: number; ownGzip: number; loads3dUpFront: boolean }[]
}
export function gzipSize(urlPath: string): number
export function wireSize(urlPath: string): number
export function workerChunks(): {
  chunks: string[]
  imports: Partial<Record<'models' | 'generated' | 'decoders', string[]>>
  lazy: string[]
}
export function threeChunks(): string[]
export function initialScripts(html: string): string[]
export function prerenderedPages(dir?: string, prefix?: string): { route: string; file: string }[]
