import type { Document, Material, Node, Primitive, Texture } from '@gltf-transform/core'
import { Primitive as PrimitiveClass } from '@gltf-transform/core'
import { strToU8, zipSync, type Zippable } from 'fflate'
import { ModelRefused } from './limits'

/**
 * A model as USDZ, for AR Quick Look on iPhone and iPad (issue 42): made on the server, once,
 * from the same document as the GLB variants (the `ar` tier's: plain geometry, PNG or JPEG maps),
 * never in the visitor's browser.
 *
 * Written by hand: three.js's USDZExporter needs a three.js scene and a DOM canvas for every
 * texture (it draws each map to re-encode it), which a Node process has neither of, and no npm
 * package writes USD from glTF without them. What it writes is what AR Quick Look reads: one
 * ASCII layer (`model.usda`, first in the package), UsdPreviewSurface materials whose maps are
 * the glTF's PNG and JPEG files as they are, and a package that is a zip with no compression and
 * every file's data at a multiple of 64 bytes (the USDZ specification).
 *
 * Carried: the node hierarchy and its transforms, every triangle primitive (positions, normals,
 * the first UV set), metal-roughness materials (base colour and alpha, metallic, roughness,
 * normal, occlusion, emissive; factors and maps), the true scale (glTF's metres, Y up), and the
 * first animation's node movements (translation, rotation, scale). Not carried: skins and morph
 * targets (a skinned model shows its rest pose), extra UV sets, vertex colours, texture
 * transforms, and materials' extensions.
 */

/** Where AR Quick Look places the model: on a floor (horizontal plane) or on a wall. */
export type UsdzPlacement = 'floor' | 'wall'

/** Time codes per second of an animated layer. */
const TIME_CODES_PER_SECOND = 60

/** The first file of the package: the layer AR Quick Look opens. */
const ROOT_LAYER = 'model.usda'

/** A number as USDA writes it: shortest form, seven significant digits, no `-0`. */
function num(value: number): string {
  if (!Number.isFinite(value)) return '0'
  const rounded = Number(value.toPrecision(7))
  return Object.is(rounded, -0) ? '0' : String(rounded)
}

const tuple = (values: ArrayLike<number>) => `(${Array.from(values, num).join(', ')})`

/** A USD prim name: letters, digits and `_`, not starting with a digit; unique among siblings. */
function primName(wanted: string, used: Set<string>, fallback: string): string {
  let base = wanted.replace(/[^A-Za-z0-9_]/g, '_')
  if (!base || /^[0-9]/.test(base)) base = `${fallback}${base ? `_${base}` : ''}`
  let name = base
  for (let i = 1; used.has(name); i++) name = `${base}_${i}`
  used.add(name)
  return name
}

type Writer = { lines: string[]; depth: number }
const line = (w: Writer, text: string) => w.lines.push(`${'    '.repeat(w.depth)}${text}`)
function block(w: Writer, head: string, body: () => void) {
  line(w, head)
  line(w, '{')
  w.depth++
  body()
  w.depth--
  line(w, '}')
}

/** The package's files besides the layer, and the materials' paths, filled as prims are written. */
type Context = {
  textures: Map<Texture, string>
  files: Record<string, Uint8Array>
  materials: Map<Material, string>
  materialNames: Set<string>
  /** The first animation's channels, by node and path. */
  animated: Map<Node, Partial<Record<'translation' | 'rotation' | 'scale', Track>>>
}

/** One channel of the animation: key times (in seconds) and values. */
type Track = { times: Float32Array | number[]; values: number[][] }

/** The model's texture as a file of the package, `textures/<n>.png|jpg`; refused if neither. */
function textureFile(ctx: Context, texture: Texture): string {
  const known = ctx.textures.get(texture)
  if (known) return known
  const mimeType = texture.getMimeType()
  const extension = mimeType === 'image/png' ? 'png' : mimeType === 'image/jpeg' ? 'jpg' : null
  const image = texture.getImage()
  if (!extension || !image)
    throw new ModelRefused(
      422,
      `cannot be made into USDZ: a texture is ${mimeType || 'missing'}, and AR Quick Look reads PNG or JPEG`,
    )
  const file = `textures/texture_${ctx.textures.size}.${extension}`
  ctx.textures.set(texture, file)
  ctx.files[file] = image
  return file
}

/** Writes the material's prim under the Materials scope (once) and returns its path. */
function materialPath(ctx: Context, material: Material | null): string | null {
  if (!material) return null
  const known = ctx.materials.get(material)
  if (known) return known
  const name = primName(material.getName(), ctx.materialNames, 'material')
  const path = `/Root/Materials/${name}`
  ctx.materials.set(material, path)
  return path
}

function writeMaterial(w: Writer, ctx: Context, material: Material, path: string) {
  const name = path.split('/').pop()!
  block(w, `def Material "${name}"`, () => {
    line(w, `token outputs:surface.connect = <${path}/surface.outputs:surface>`)
    const surface: string[] = []
    const shaders: (() => void)[] = []
    let reader = false
    const texture = (
      slot: string,
      tex: Texture | null,
      colorSpace: 'sRGB' | 'raw',
      extra: string[] = [],
    ): string | null => {
      if (!tex) return null
      const file = textureFile(ctx, tex)
      reader = true
      shaders.push(() =>
        block(w, `def Shader "${slot}"`, () => {
          line(w, 'uniform token info:id = "UsdUVTexture"')
          line(w, `asset inputs:file = @${file}@`)
          line(w, `float2 inputs:st.connect = <${path}/uv.outputs:result>`)
          line(w, `token inputs:sourceColorSpace = "${colorSpace}"`)
          line(w, 'token inputs:wrapS = "repeat"')
          line(w, 'token inputs:wrapT = "repeat"')
          for (const e of extra) line(w, e)
          line(w, 'float outputs:r')
          line(w, 'float outputs:g')
          line(w, 'float outputs:b')
          line(w, 'float outputs:a')
          line(w, 'float3 outputs:rgb')
        }),
      )
      return `${path}/${slot}`
    }

    const [r, g, b, a] = material.getBaseColorFactor()
    const base = texture('base_color', material.getBaseColorTexture(), 'sRGB', [
      `float4 inputs:scale = ${tuple([r, g, b, a])}`,
    ])
    if (base) surface.push(`color3f inputs:diffuseColor.connect = <${base}.outputs:rgb>`)
    else surface.push(`color3f inputs:diffuseColor = ${tuple([r, g, b])}`)
    const alphaMode = material.getAlphaMode()
    if (alphaMode !== 'OPAQUE') {
      if (base) surface.push(`float inputs:opacity.connect = <${base}.outputs:a>`)
      else surface.push(`float inputs:opacity = ${num(a)}`)
      if (alphaMode === 'MASK')
        surface.push(`float inputs:opacityThreshold = ${num(material.getAlphaCutoff())}`)
    }

    const metallic = material.getMetallicFactor()
    const roughness = material.getRoughnessFactor()
    // glTF packs roughness in G and metalness in B of one map.
    const mr = texture('metallic_roughness', material.getMetallicRoughnessTexture(), 'raw', [
      `float4 inputs:scale = ${tuple([1, roughness, metallic, 1])}`,
    ])
    if (mr) {
      surface.push(`float inputs:metallic.connect = <${mr}.outputs:b>`)
      surface.push(`float inputs:roughness.connect = <${mr}.outputs:g>`)
    } else {
      surface.push(`float inputs:metallic = ${num(metallic)}`)
      surface.push(`float inputs:roughness = ${num(roughness)}`)
    }

    // A normal map's 0..1 values become -1..1, scaled in x and y by the material's scale.
    const scale = material.getNormalScale()
    const normal = texture('normal', material.getNormalTexture(), 'raw', [
      `float4 inputs:scale = ${tuple([2 * scale, 2 * scale, 2, 1])}`,
      `float4 inputs:bias = ${tuple([-scale, -scale, -1, 0])}`,
    ])
    if (normal) surface.push(`normal3f inputs:normal.connect = <${normal}.outputs:rgb>`)

    const occlusion = texture('occlusion', material.getOcclusionTexture(), 'raw')
    if (occlusion) surface.push(`float inputs:occlusion.connect = <${occlusion}.outputs:r>`)

    const emissive = material.getEmissiveFactor()
    const emissiveMap = texture('emissive', material.getEmissiveTexture(), 'sRGB', [
      `float4 inputs:scale = ${tuple([...emissive, 1])}`,
    ])
    if (emissiveMap)
      surface.push(`color3f inputs:emissiveColor.connect = <${emissiveMap}.outputs:rgb>`)
    else if (emissive.some((c) => c > 0))
      surface.push(`color3f inputs:emissiveColor = ${tuple(emissive)}`)

    block(w, 'def Shader "surface"', () => {
      line(w, 'uniform token info:id = "UsdPreviewSurface"')
      for (const s of surface) line(w, s)
      line(w, 'int inputs:useSpecularWorkflow = 0')
      line(w, 'token outputs:surface')
    })
    if (reader)
      block(w, 'def Shader "uv"', () => {
        line(w, 'uniform token info:id = "UsdPrimvarReader_float2"')
        line(w, 'string inputs:varname = "st"')
        line(w, 'float2 inputs:fallback = (0, 0)')
        line(w, 'float2 outputs:result')
      })
    for (const shader of shaders) shader()
  })
}

/** A triangle primitive as a Mesh prim; null for points, lines and primitives with no positions. */
function writePrimitive(w: Writer, ctx: Context, prim: Primitive, name: string): boolean {
  if (prim.getMode() !== PrimitiveClass.Mode.TRIANGLES) return false
  const position = prim.getAttribute('POSITION')
  if (!position || position.getCount() < 3) return false
  const count = position.getCount()
  const indices = prim.getIndices()
  const index: ArrayLike<number> = indices?.getArray() ?? Array.from({ length: count }, (_, i) => i)
  const triangles = Math.floor(index.length / 3)
  const element: number[] = []
  const vec = (
    accessor: NonNullable<typeof position>,
    size: number,
    map?: (v: number[]) => number[],
  ) => {
    const out: string[] = []
    for (let i = 0; i < accessor.getCount(); i++) {
      const v = accessor.getElement(i, new Array<number>(size))
      out.push(tuple(map ? map(v) : v))
    }
    return out.join(', ')
  }
  block(w, `def Mesh "${name}"`, () => {
    line(w, `int[] faceVertexCounts = [${new Array(triangles).fill(3).join(', ')}]`)
    for (let i = 0; i < triangles * 3; i++) element.push(index[i]!)
    line(w, `int[] faceVertexIndices = [${element.join(', ')}]`)
    line(w, `point3f[] points = [${vec(position, 3)}]`)
    const normal = prim.getAttribute('NORMAL')
    if (normal) {
      line(w, `normal3f[] normals = [${vec(normal, 3)}] (`)
      line(w, '    interpolation = "vertex"')
      line(w, ')')
    }
    const uv = prim.getAttribute('TEXCOORD_0')
    if (uv) {
      // glTF's V runs down the image, USD's up.
      line(w, `texCoord2f[] primvars:st = [${vec(uv, 2, ([u, v]) => [u!, 1 - v!])}] (`)
      line(w, '    interpolation = "vertex"')
      line(w, ')')
    }
    line(w, 'uniform token subdivisionScheme = "none"')
    line(w, 'uniform token orientation = "rightHanded"')
    const material = materialPath(ctx, prim.getMaterial())
    if (material) line(w, `rel material:binding = <${material}>`)
  })
  return true
}

/** The node's transform: its matrix, or its animated translation, rotation and scale. */
function writeTransform(w: Writer, ctx: Context, node: Node) {
  const tracks = ctx.animated.get(node)
  if (!tracks) {
    const m = node.getMatrix()
    const identity = m.every((v, i) => v === (i % 5 === 0 ? 1 : 0))
    if (identity) return
    const rows = [0, 4, 8, 12].map((i) => tuple(m.slice(i, i + 4)))
    line(w, `matrix4d xformOp:transform = (${rows.join(', ')})`)
    line(w, 'uniform token[] xformOpOrder = ["xformOp:transform"]')
    return
  }
  const samples = (track: Track, map: (v: number[]) => number[]) =>
    Array.from(
      track.times,
      (t, i) => `${num(t * TIME_CODES_PER_SECOND)}: ${tuple(map(track.values[i]!))}`,
    ).join(', ')
  const op = (
    type: string,
    name: string,
    track: Track | undefined,
    value: number[],
    map: (v: number[]) => number[] = (v) => v,
  ) => {
    if (track) line(w, `${type} xformOp:${name}.timeSamples = { ${samples(track, map)} }`)
    else line(w, `${type} xformOp:${name} = ${tuple(map(value))}`)
  }
  // USD's quaternions are (real, i, j, k); glTF's are (x, y, z, w).
  op('double3', 'translate', tracks.translation, node.getTranslation())
  op('quatf', 'orient', tracks.rotation, node.getRotation(), ([x, y, z, q]) => [q!, x!, y!, z!])
  op('float3', 'scale', tracks.scale, node.getScale())
  line(w, 'uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:orient", "xformOp:scale"]')
}

function writeNode(w: Writer, ctx: Context, node: Node, used: Set<string>) {
  const name = primName(node.getName(), used, 'node')
  block(w, `def Xform "${name}"`, () => {
    writeTransform(w, ctx, node)
    const children = new Set<string>()
    const mesh = node.getMesh()
    if (mesh)
      mesh
        .listPrimitives()
        .forEach((prim, i) =>
          writePrimitive(
            w,
            ctx,
            prim,
            primName(`${mesh.getName() || 'mesh'}_${i}`, children, 'mesh'),
          ),
        )
    for (const child of node.listChildren()) writeNode(w, ctx, child, children)
  })
}

/** The first animation's channels on node translation, rotation and scale. */
function animationTracks(doc: Document): { tracks: Context['animated']; end: number } {
  const tracks: Context['animated'] = new Map()
  let end = 0
  const animation = doc.getRoot().listAnimations()[0]
  for (const channel of animation?.listChannels() ?? []) {
    const node = channel.getTargetNode()
    const path = channel.getTargetPath()
    const sampler = channel.getSampler()
    const input = sampler?.getInput()
    const output = sampler?.getOutput()
    if (
      !node ||
      !input ||
      !output ||
      (path !== 'translation' && path !== 'rotation' && path !== 'scale')
    )
      continue
    const size = path === 'rotation' ? 4 : 3
    const times = Array.from(input.getArray() ?? [])
    // A cubic spline's output holds (in-tangent, value, out-tangent) per key: the value is kept.
    const cubic = sampler!.getInterpolation() === 'CUBICSPLINE'
    const values = times.map((_, i) =>
      output.getElement(cubic ? i * 3 + 1 : i, new Array<number>(size)),
    )
    const entry = tracks.get(node) ?? {}
    entry[path] = { times, values }
    tracks.set(node, entry)
    end = Math.max(end, times[times.length - 1] ?? 0)
  }
  return { tracks, end }
}

/**
 * The USD layer of `doc` and its texture files. Throws `ModelRefused` (422) when the model has
 * no triangle to show, or a texture AR Quick Look cannot read (KTX2, WebP, AVIF).
 */
export function usdLayer(
  doc: Document,
  placement: UsdzPlacement,
): { layer: string; files: Record<string, Uint8Array> } {
  const { tracks, end } = animationTracks(doc)
  const ctx: Context = {
    textures: new Map(),
    files: {},
    materials: new Map(),
    materialNames: new Set(),
    animated: tracks,
  }
  const w: Writer = { lines: [], depth: 0 }
  const header = [
    '#usda 1.0',
    '(',
    '    defaultPrim = "Root"',
    '    metersPerUnit = 1',
    '    upAxis = "Y"',
    ...(end > 0
      ? [
          '    startTimeCode = 0',
          `    endTimeCode = ${num(end * TIME_CODES_PER_SECOND)}`,
          `    timeCodesPerSecond = ${TIME_CODES_PER_SECOND}`,
        ]
      : []),
    ')',
    '',
  ]
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0]
  block(w, 'def Xform "Root" (\n    kind = "component"\n)', () => {
    // AR Quick Look's placement: on a horizontal plane (the floor) or a vertical one (a wall).
    line(w, 'token preliminary:anchoring:type = "plane"')
    line(
      w,
      `token preliminary:planeAnchoring:alignment = "${placement === 'wall' ? 'vertical' : 'horizontal'}"`,
    )
    const used = new Set(['Materials'])
    for (const node of scene?.listChildren() ?? []) writeNode(w, ctx, node, used)
    block(w, 'def Scope "Materials"', () => {
      for (const [material, path] of ctx.materials) writeMaterial(w, ctx, material, path)
    })
  })
  const layer = header.join('\n') + w.lines.join('\n') + '\n'
  if (!/def Mesh /.test(layer))
    throw new ModelRefused(422, 'cannot be made into USDZ: it has no triangles to show')
  return { layer, files: ctx.files }
}

/**
 * A USDZ package: a zip with no compression whose first file is the root layer and whose every
 * file's data starts at a multiple of 64 bytes. fflate writes the zip; the padding goes in each
 * local header's extra field (ID 0x3039, unassigned), as three.js's USDZExporter pads it.
 */
export function usdzPackage(layer: string, files: Record<string, Uint8Array>): Uint8Array {
  const entries: [string, Uint8Array][] = [[ROOT_LAYER, strToU8(layer)], ...Object.entries(files)]
  const zippable: Zippable = {}
  let offset = 0
  for (const [name, data] of entries) {
    // Local file header: 30 bytes, the name, the extra field (4 bytes of ID and size, then pad).
    const header = 30 + strToU8(name).length + 4
    const pad = (64 - ((offset + header) % 64)) % 64
    zippable[name] = [data, { level: 0, extra: { 0x3039: new Uint8Array(pad) } }]
    offset += header + pad + data.length
  }
  // A fixed date: the same model makes the same bytes (the cache's ETag names them).
  return zipSync(zippable, { level: 0, mtime: new Date('2000-01-01T00:00:00Z') })
}

/**
 * The largest USDZ served. The `ar` tier bounds what goes in (250,000 triangles, 2048 px maps),
 * so a file over this is a model with very many maps: refused rather than sent to a phone.
 */
export const USDZ_MAX_BYTES = 30 * 1024 * 1024

/**
 * `doc` (the `ar` tier's document) as USDZ bytes; see `usdLayer` for what is refused, and a file
 * over `USDZ_MAX_BYTES` (422).
 */
export function documentToUsdz(doc: Document, placement: UsdzPlacement): Uint8Array {
  const { layer, files } = usdLayer(doc, placement)
  const usdz = usdzPackage(layer, files)
  if (usdz.byteLength > USDZ_MAX_BYTES)
    throw new ModelRefused(
      422,
      `cannot be made into USDZ: ${(usdz.byteLength / 1024 / 1024).toFixed(1)} MB over the ${USDZ_MAX_BYTES / 1024 / 1024} MB limit`,
    )
  return usdz
}
