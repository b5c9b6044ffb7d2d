// What a loaded model holds, for `?debug3d` (protocol.ts, `ModelInfo`): the file's bytes as
// fetched, its triangles, its textures' sizes and their GPU memory. Read from three's objects
// once the model is loaded; nothing is fetched again (no HEAD).
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js'
import {
  LoaderUtils,
  type CompressedTexture,
  type InstancedMesh,
  type Material,
  type Mesh,
  type Texture,
} from 'three'
import { takePrefetched } from './prefetch'
import { arrived } from './arrivals'
import type { ModelInfo } from '../protocol'

/** The bytes each loaded model's file had, as GLTFLoader parsed them. */
const fetchedBytes = new WeakMap<GLTF, number>()

/**
 * three's GLTFLoader, noting each model's file size as it parses it: the bytes the renderer
 * received for the URL it fetched (the variant's, or the original's).
 */
export class MeasuredGLTFLoader extends GLTFLoader {
  /** As GLTFLoader's, but from the bytes prefetched for `url` when there are (prefetch.ts). */
  load(
    url: string,
    onLoad: (gltf: GLTF) => void,
    onProgress?: (event: ProgressEvent) => void,
    onError?: (error: unknown) => void,
  ): void {
    const prefetched = takePrefetched(url)
    if (!prefetched) return super.load(url, onLoad, onProgress, onError)
    prefetched.then(
      (bytes) => {
        onProgress?.(
          new ProgressEvent('progress', {
            lengthComputable: true,
            loaded: bytes.byteLength,
            total: bytes.byteLength,
          }),
        )
        const resourcePath = this.resourcePath || LoaderUtils.extractUrlBase(url)
        try {
          this.parse(bytes, resourcePath, onLoad, onError)
        } catch (error) {
          if (onError) onError(error)
          else throw error
        }
      },
      // Not fetched after all: the loader fetches it, and reports its own error if it fails.
      () => super.load(url, onLoad, onProgress, onError),
    )
  }

  parse(
    data: ArrayBuffer | string,
    path: string,
    onLoad: (gltf: GLTF) => void,
    onError?: (event: ErrorEvent) => void,
  ): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data).length : data.byteLength
    super.parse(
      data,
      path,
      (gltf) => {
        fetchedBytes.set(gltf, bytes)
        onLoad(gltf)
        // After the loader's cache has it (arrivals.ts).
        setTimeout(arrived)
      },
      onError,
    )
  }
}

/** The GPU memory of one texture: a compressed file's levels, else RGBA8 with a mip chain. */
function gpuBytes(texture: Texture): number {
  const compressed = texture as CompressedTexture
  if (compressed.isCompressedTexture)
    return compressed.mipmaps.reduce((sum, level) => sum + (level.data?.byteLength ?? 0), 0)
  const { width = 0, height = 0 } = (texture.image ?? {}) as { width?: number; height?: number }
  const levels = texture.generateMipmaps ? 4 / 3 : 1
  return Math.round(width * height * 4 * levels)
}

/** What `gltf`, fetched from `url`, holds: triangles, distinct textures, their GPU memory. */
export function modelInfo(gltf: GLTF, url: string): ModelInfo {
  let triangles = 0
  // Textures by their source: a texture cloned per material (GLTFLoader does) is one upload.
  const textures = new Map<unknown, Texture>()
  gltf.scene.traverse((object) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    const geometry = mesh.geometry
    const vertices = geometry.index?.count ?? geometry.attributes.position?.count ?? 0
    const drawn = Math.min(vertices, geometry.drawRange.count)
    const instances = (mesh as InstancedMesh).isInstancedMesh ? (mesh as InstancedMesh).count : 1
    triangles += Math.floor(drawn / 3) * instances
    const materials: Material[] = Array.isArray(mesh.material) ? mesh.material : [mesh.material]
    for (const material of materials)
      for (const value of Object.values(material))
        if ((value as Texture | null)?.isTexture)
          textures.set((value as Texture).source ?? value, value as Texture)
  })
  const list = [...textures.values()]
  return {
    url,
    bytes: fetchedBytes.get(gltf) ?? 0,
    triangles,
    textures: list.map((texture) => {
      const { width = 0, height = 0 } = (texture.image ?? {}) as {
        width?: number
        height?: number
      }
      const mimeType = texture.userData?.mimeType as string | undefined
      return mimeType ? { width, height, mimeType } : { width, height }
    }),
    gpuTextureBytes: list.reduce((sum, texture) => sum + gpuBytes(texture), 0),
  }
}
