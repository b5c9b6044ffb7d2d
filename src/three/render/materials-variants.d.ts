// Types for three-gltf-extensions' KHR_materials_variants plugin (plain JavaScript): what this
// site uses of it. The plugin sets `gltf.userData.variants` (the variants' names, made unique)
// and `gltf.functions`.
declare module 'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js' {
  import type { Object3D } from 'three'
  import type { GLTFLoaderPlugin, GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js'

  /** What the plugin adds to a loaded glTF: `gltf.functions`. */
  export type VariantFunctions = {
    /** Puts `name`'s materials (null: the model's own) on each mesh under `object`. */
    selectVariant(object: Object3D, name: string | null): Promise<void>
    /** Loads every variant's materials (and their textures) of the meshes under `object`. */
    ensureLoadVariants(object: Object3D): Promise<void>
    /** Copies what `selectVariant` needs from `source` to its clone `target` (same tree). */
    copyVariantMaterials(target: Object3D, source: Object3D): void
  }

  export default class GLTFMaterialsVariantsExtension implements GLTFLoaderPlugin {
    constructor(parser: GLTFParser)
    name: string
  }
}
