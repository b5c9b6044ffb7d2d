// The light a model is shown in (look.ts, `SceneLook.environment`): one of four environments the
// renderer draws itself, or an equirectangular image an editor uploaded, fetched from the site's
// own origin at the size the device needs. Each becomes a prefiltered (PMREM) map for the model's
// reflections and light, and a backdrop when the slice shows the environment behind the model.
//
// The presets are small scenes of glowing boxes and a sky, drawn into the map in the browser, as
// three's RoomEnvironment is (the `neutral` preset is RoomEnvironment): nothing is downloaded,
// so they are self-hosted by construction (drei's `Environment` presets would fetch HDR files
// from a CDN). An uploaded Radiance HDR is read by three's HDRLoader; a JPEG, PNG or AVIF is
// decoded by the browser (`createImageBitmap`, which a worker has).
import {
  BackSide,
  BoxGeometry,
  Color,
  CubeCamera,
  DataTexture,
  DataUtils,
  EquirectangularReflectionMapping,
  Float32BufferAttribute,
  HalfFloatType,
  LinearFilter,
  LinearSRGBColorSpace,
  Mesh,
  MeshBasicMaterial,
  PMREMGenerator,
  RGBAFormat,
  Scene,
  SphereGeometry,
  SphericalHarmonics3,
  SRGBColorSpace,
  Texture,
  Vector3,
  WebGLCubeRenderTarget,
  type WebGLRenderer,
} from 'three'
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js'
import { HDRLoader } from 'three/examples/jsm/loaders/HDRLoader.js'
import { takePrefetched } from './prefetch'
import { prefiltered, release } from './room-environment'
import type { EnvironmentPreset, SceneEnvironment } from '@rules/look'

/** A low tier's light from an environment: its harmonics, and a key light from its brightest part. */
export type Irradiance = {
  sh: SphericalHarmonics3
  key: { direction: Vector3; color: Color; intensity: number }
}

/** What a model's scene takes from its environment. */
export type LitEnvironment = {
  /** The prefiltered map: `scene.environment` (high tier; null on the low tier). */
  lighting: Texture | null
  /** The low tier's light instead (null on the high tier). */
  irradiance: Irradiance | null
  /** The backdrop when the slice shows the environment: `scene.background`. */
  background: Texture
}

/** A glowing panel: a box whose colour is its light (linear, may be over 1). */
function panel(
  scene: Scene,
  size: [number, number, number],
  at: [number, number, number],
  light: number,
  tint = '#ffffff',
) {
  const mesh = new Mesh(
    new BoxGeometry(...size),
    new MeshBasicMaterial({ color: new Color(tint).multiplyScalar(light) }),
  )
  mesh.position.set(...at)
  scene.add(mesh)
}

/** A room's walls: a box seen from inside, of one grey. */
function room(scene: Scene, grey: number) {
  const walls = new Mesh(
    new BoxGeometry(20, 12, 20),
    new MeshBasicMaterial({ color: new Color(grey, grey, grey), side: BackSide }),
  )
  walls.position.y = 4
  scene.add(walls)
}

/**
 * The presets' scenes (the model sits at the origin, the camera in front of it, along +z):
 * - `soft-studio`: a light grey room, a wide softbox overhead and two at the sides: even light,
 *   soft reflections;
 * - `contrast-studio`: a nearly black room with one tall strip to the left and a rim strip behind
 *   to the right: deep shadows, crisp highlights, as product photographs of metal and glass;
 * - `outdoor`: a sky from blue overhead to a pale horizon, a warm sun high to the right, and a
 *   darker ground.
 */
function presetScene(preset: Exclude<EnvironmentPreset, 'neutral'>): Scene {
  const scene = new Scene()
  switch (preset) {
    case 'soft-studio':
      room(scene, 0.45)
      panel(scene, [8, 0.1, 8], [0, 8, 0], 6)
      panel(scene, [0.1, 6, 8], [-8, 3, 1], 2.5)
      panel(scene, [0.1, 6, 8], [8, 3, 1], 2.5)
      panel(scene, [8, 5, 0.1], [0, 3, 9], 1.2)
      return scene
    case 'contrast-studio':
      room(scene, 0.015)
      panel(scene, [0.6, 8, 2], [-6, 4, 3], 24)
      panel(scene, [2, 7, 0.4], [5, 3.5, -7], 14, '#dfe8ff')
      return scene
    case 'outdoor': {
      // The sky: one colour per vertex, by height.
      const sky = new SphereGeometry(40, 32, 16)
      const zenith = new Color('#3f7fd6').multiplyScalar(1.4)
      const horizon = new Color('#e4ecf4').multiplyScalar(1.6)
      const ground = new Color('#5e5548').multiplyScalar(0.5)
      const colours: number[] = []
      const position = sky.getAttribute('position')
      for (let i = 0; i < position.count; i++) {
        const up = position.getY(i) / 40
        const colour = up >= 0 ? horizon.clone().lerp(zenith, Math.sqrt(up)) : ground.clone()
        colours.push(colour.r, colour.g, colour.b)
      }
      sky.setAttribute('color', new Float32BufferAttribute(colours, 3))
      scene.add(new Mesh(sky, new MeshBasicMaterial({ vertexColors: true, side: BackSide })))
      const sun = new Mesh(
        new SphereGeometry(2.2, 16, 8),
        new MeshBasicMaterial({ color: new Color('#fff1d6').multiplyScalar(60) }),
      )
      sun.position.set(20, 26, 12)
      scene.add(sun)
      return scene
    }
  }
}

/**
 * A preset's light, made on this renderer. The high tier prefilters it (PMREM), for reflections as
 * well as light; the low tier (a software renderer, where a prefilter of 256 px takes seconds)
 * draws it into a small cube and keeps its light as harmonics and a key light (`irradiance`), and
 * its backdrop as a cube of 128 px.
 */
export function presetEnvironment(
  gl: WebGLRenderer,
  preset: EnvironmentPreset,
  tier: 'high' | 'low' = 'high',
): LitEnvironment {
  const scene = preset === 'neutral' ? new RoomEnvironment() : presetScene(preset)
  if (tier === 'high') {
    const texture = prefiltered(gl, scene)
    return { lighting: texture, irradiance: null, background: texture }
  }
  const light = cubeOf(gl, scene, IRRADIANCE_SIZE)
  const backdrop = cubeOf(gl, scene, 128)
  release(scene)
  const irradiance = irradianceOf(gl, light)
  light.dispose()
  return { lighting: null, irradiance, background: backdrop.texture }
}

/** The cube size the low tier reads an environment's light from. */
const IRRADIANCE_SIZE = 32

/** A scene as seen from its middle, into a cube of `size` px a face. */
function cubeOf(gl: WebGLRenderer, scene: Scene, size: number): WebGLCubeRenderTarget {
  const target = new WebGLCubeRenderTarget(size, { type: HalfFloatType })
  new CubeCamera(0.1, 100, target).update(gl, scene)
  return target
}

/**
 * An environment's light as spherical harmonics (a LightProbe's), from a small cube of it, and its
 * brightest direction as a key light, which gives metal a highlight the harmonics cannot. The
 * projection is three's LightProbeGenerator.fromCubeRenderTarget's (the same faces and weights),
 * written here to find the brightest texel in the same pass and to read synchronously (its reads
 * are asynchronous, and a frame waiting on them would be a frame late).
 */
function irradianceOf(gl: WebGLRenderer, target: WebGLCubeRenderTarget): Irradiance {
  const width = target.width
  const data = new Uint16Array(width * width * 4)
  const sh = new SphericalHarmonics3()
  const basis = new Array<number>(9).fill(0)
  const coord = new Vector3()
  const direction = new Vector3()
  const brightest = { luminance: -1, direction: new Vector3(0, 1, 0), color: new Color(1, 1, 1) }
  const flip = -1 // WebGL's coordinate system, as LightProbeGenerator has it
  const pixel = 2 / width
  let total = 0
  for (let face = 0; face < 6; face++) {
    gl.readRenderTargetPixels(target, 0, 0, width, width, data, face)
    for (let i = 0; i < data.length; i += 4) {
      const r = DataUtils.fromHalfFloat(data[i]!)
      const g = DataUtils.fromHalfFloat(data[i + 1]!)
      const b = DataUtils.fromHalfFloat(data[i + 2]!)
      const index = i / 4
      const col = (1 - ((index % width) + 0.5) * pixel) * flip
      const row = 1 - (Math.floor(index / width) + 0.5) * pixel
      switch (face) {
        case 0:
          coord.set(-1 * flip, row, col * flip)
          break
        case 1:
          coord.set(1 * flip, row, -col * flip)
          break
        case 2:
          coord.set(col, 1, -row)
          break
        case 3:
          coord.set(col, -1, row)
          break
        case 4:
          coord.set(col, row, 1)
          break
        case 5:
          coord.set(-col, row, -1)
          break
      }
      const lengthSq = coord.lengthSq()
      const weight = 4 / (Math.sqrt(lengthSq) * lengthSq)
      total += weight
      direction.copy(coord).normalize()
      SphericalHarmonics3.getBasisAt(direction, basis)
      for (let j = 0; j < 9; j++) {
        sh.coefficients[j]!.x += basis[j]! * r * weight
        sh.coefficients[j]!.y += basis[j]! * g * weight
        sh.coefficients[j]!.z += basis[j]! * b * weight
      }
      const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
      if (luminance > brightest.luminance) {
        brightest.luminance = luminance
        brightest.direction.copy(direction)
        brightest.color.setRGB(r, g, b)
      }
    }
  }
  const norm = (4 * Math.PI) / total
  for (const coefficient of sh.coefficients) coefficient.multiplyScalar(norm)
  // A key light as bright as the brightest part stands out from the rest, within reason.
  const average = (sh.coefficients[0]!.x + sh.coefficients[0]!.y + sh.coefficients[0]!.z) / 3
  const ratio = brightest.luminance / Math.max(1e-4, average * 0.282095)
  const color = brightest.color.multiplyScalar(1 / Math.max(1e-4, brightest.luminance))
  return {
    sh,
    key: {
      direction: brightest.direction,
      color,
      intensity: Math.min(3, Math.max(0.3, Math.log2(1 + ratio) * 0.6)),
    },
  }
}

/** An equirectangular file as a texture: a Radiance HDR (linear), or an 8-bit image (sRGB). */
async function equirectangular(bytes: ArrayBuffer, hdr: boolean): Promise<Texture> {
  if (hdr) {
    const data = new HDRLoader().setDataType(HalfFloatType).parse(bytes)
    const texture = new DataTexture(
      data.data as Uint16Array,
      data.width,
      data.height,
      RGBAFormat,
      HalfFloatType,
    )
    texture.colorSpace = LinearSRGBColorSpace
    texture.minFilter = texture.magFilter = LinearFilter
    texture.generateMipmaps = false
    texture.flipY = true
    texture.mapping = EquirectangularReflectionMapping
    texture.needsUpdate = true
    return texture
  }
  const bitmap = await createImageBitmap(new Blob([bytes]), { imageOrientation: 'flipY' })
  const texture = new Texture(bitmap)
  texture.colorSpace = SRGBColorSpace
  texture.flipY = false
  texture.mapping = EquirectangularReflectionMapping
  texture.needsUpdate = true
  return texture
}

/**
 * An environment file's bytes: those the renderer started fetching beside the model (renderer.tsx,
 * `slots`), else fetched now. Rejects, naming the file, when it cannot be fetched.
 */
export async function environmentBytes(url: string): Promise<ArrayBuffer> {
  const early = takePrefetched(url)
  if (early) {
    const bytes = await early.catch(() => null)
    if (bytes) return bytes
  }
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.arrayBuffer()
}

/**
 * The prefiltered map of an environment file at `url` (the site's, with the device's size asked
 * for: model-variant.ts), and the file itself as the backdrop. `bytes`: the file, when its fetch
 * was started earlier (`environmentBytes`). Rejects, naming the file and the reason, when it
 * cannot be fetched or read.
 */
export async function fileEnvironment(
  gl: WebGLRenderer,
  url: string,
  hdr: boolean,
  tier: 'high' | 'low' = 'high',
  bytes: Promise<ArrayBuffer> = environmentBytes(url),
): Promise<LitEnvironment> {
  const texture = await equirectangular(await bytes, hdr).catch((error: unknown) => {
    throw new Error(`${url} cannot be read as ${hdr ? 'a Radiance HDR' : 'an image'}: ${error}`)
  })
  if (tier === 'low') {
    const light = new WebGLCubeRenderTarget(IRRADIANCE_SIZE, { type: HalfFloatType })
    light.fromEquirectangularTexture(gl, texture)
    const irradiance = irradianceOf(gl, light)
    light.dispose()
    return { lighting: null, irradiance, background: texture }
  }
  const pmrem = new PMREMGenerator(gl)
  const lighting = pmrem.fromEquirectangular(texture).texture
  pmrem.dispose()
  return { lighting, irradiance: null, background: texture }
}

/** A key for an environment: the preset's name, or the file's URL. */
export const environmentKey = (environment: SceneEnvironment) =>
  environment.kind === 'preset' ? `preset:${environment.preset}` : `file:${environment.url}`
