import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * TinyUSDZ (npm `tinyusdz`, WebAssembly): a USD reader we did not write, to read back the USDZ
 * files the model pipeline makes. Its build targets browsers only, and refuses to start where it
 * sees Node; for the moment of its start-up it is shown a browser's globals (`window`, and a
 * `process.type` of "renderer", which Electron's renderer reports), then they are taken away. It
 * reads everything from memory, so nothing else of a browser is needed.
 */

export type UsdMesh = {
  primName: string
  absPath: string
  points: ArrayLike<number>
  faceVertexCounts: ArrayLike<number>
  faceVertexIndices: ArrayLike<number>
  normals?: ArrayLike<number>
  texcoords?: ArrayLike<number>
  materialId: number
}

export type UsdScene = {
  numMeshes(): number
  getMesh(index: number): UsdMesh
  getMaterial(index: number): Record<string, unknown>
  getTexture(index: number): Record<string, unknown>
  getImage(index: number): Record<string, unknown>
  getDefaultRootNode(): UsdNode
}

export type UsdNode = {
  primName: string
  nodeType: string
  contentId: number
  globalMatrix: number[]
  children: UsdNode[]
}

type Native = {
  TinyUSDZLoaderNative: new () => UsdScene & {
    loadFromBinary(b: Uint8Array, name: string): boolean
    setLoadTextureInNative(on: boolean): void
    error(): string
  }
}

let native: Promise<Native> | undefined

async function start(): Promise<Native> {
  const require = createRequire(import.meta.url)
  const wasmBinary = readFileSync(require.resolve('tinyusdz/tinyusdz.wasm'))
  const global = globalThis as { window?: unknown }
  const proc = process as { type?: string }
  global.window = globalThis
  proc.type = 'renderer'
  try {
    // @ts-expect-error: the package ships no types.
    const { default: init } = await import('tinyusdz/tinyusdz.js')
    return (await init({ wasmBinary })) as Native
  } finally {
    delete global.window
    delete proc.type
  }
}

/** Reads a USD file (USDZ, USDA or USDC) with TinyUSDZ; throws with its error when it cannot. */
export async function readUsd(bytes: Uint8Array, name: string): Promise<UsdScene> {
  native ??= start()
  const usd = new (await native).TinyUSDZLoaderNative()
  // Decode the textures too: a map that does not decode then shows as an image of no size.
  usd.setLoadTextureInNative(true)
  if (!usd.loadFromBinary(bytes, name))
    throw new Error(`TinyUSDZ cannot read ${name}: ${usd.error()}`)
  return usd
}
