// What a model an editor uploads may use: glTF 2.0 (`.glb`, or `.gltf` with its resources
// embedded) and the extensions three.js's GLTFLoader draws, with the decoders the renderer
// serves for them (src/three/render/gltf-loader.ts). Plain data, no three.js: `content:check`
// reads it too, and docs/3d.md lists it.

/** The extensions the renderer draws, and what each brings. */
export const SUPPORTED_EXTENSIONS: Record<string, string> = {
  KHR_draco_mesh_compression: 'Draco meshes (decoder served by the site, fetched when needed)',
  EXT_meshopt_compression: 'meshopt meshes (decoder inside three.js)',
  KHR_meshopt_compression: 'meshopt meshes, Khronos version (decoder inside three.js)',
  KHR_mesh_quantization: 'quantized vertex attributes',
  KHR_texture_basisu: 'KTX2 / Basis Universal textures (transcoder served by the site)',
  EXT_texture_webp: 'WebP textures',
  EXT_texture_avif: 'AVIF textures, where the browser decodes AVIF',
  KHR_texture_transform: 'texture offset, scale and rotation',
  KHR_materials_clearcoat: 'clear coat',
  KHR_materials_diffuse_roughness: 'diffuse roughness',
  KHR_materials_dispersion: 'dispersion',
  KHR_materials_emissive_strength: 'emissive strength',
  KHR_materials_ior: 'index of refraction',
  KHR_materials_iridescence: 'iridescence',
  KHR_materials_sheen: 'sheen',
  KHR_materials_specular: 'specular',
  KHR_materials_transmission: 'transmission',
  KHR_materials_unlit: 'unlit materials',
  KHR_materials_volume: 'volume',
  KHR_materials_anisotropy: 'anisotropy',
  EXT_materials_bump: 'bump maps',
  KHR_lights_punctual: 'lights (drawn as the model defines them)',
  EXT_mesh_gpu_instancing: 'GPU instancing',
  KHR_materials_variants: 'material variants (a row of buttons in the model viewer)',
}

/**
 * The extensions above that three's GLTFLoader reads through a plugin the renderer registers
 * (src/three/render/gltf-loader.ts), not by itself, and the package each plugin comes from.
 */
export const PLUGIN_EXTENSIONS: Record<string, string> = {
  KHR_materials_variants:
    'three-gltf-extensions/loaders/KHR_materials_variants/KHR_materials_variants.js',
}

/**
 * Why a model with these required extensions cannot be drawn, or null when it can. A model that
 * merely uses an unknown extension (not required) is drawn without it, as glTF intends.
 */
export function unsupportedRequired(required: readonly string[] | undefined): string | null {
  const unknown = (required ?? []).filter((name) => !(name in SUPPORTED_EXTENSIONS))
  return unknown.length
    ? `it requires ${unknown.map((n) => `"${n}"`).join(', ')}, which the renderer does not support`
    : null
}
