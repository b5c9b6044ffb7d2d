// Generates the sample GLB models in content/media/models/ from three.js geometry, then welds,
// reorders, quantizes and meshopt-compresses them with glTF-Transform. Run `npm run models`.
// The models are procedural so the repository needs no binary sources and no network.
import { mkdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core'
import {
  EXTMeshoptCompression,
  KHRMaterialsVariants,
  KHRMeshQuantization,
} from '@gltf-transform/extensions'
import { dedup, meshopt, prune, reorder, weld } from '@gltf-transform/functions'
import { MeshoptEncoder } from 'meshoptimizer'
import * as THREE from 'three'
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js'

/** Each model must stay under this size once compressed (issue 5). */
const MAX_BYTES = 300 * 1024
const outDir = path.join(process.cwd(), 'content/media/models')

type Part = {
  /** The glTF node's name: parts an animation moves need one. */
  name?: string
  geometry: THREE.BufferGeometry
  material: string
  position?: [number, number, number]
  rotation?: [number, number, number]
}
type MaterialSpec = { color: [number, number, number]; metallic: number; roughness: number }

function addPart(doc: Document, parent: Node, part: Part, materials: Map<string, Material>): Node {
  const g = part.geometry
  if (!g.index) throw new Error(`model generator: geometry ${g.type} has no index`)
  g.computeVertexNormals()
  const buffer = doc.getRoot().listBuffers()[0]
  const prim = doc.createPrimitive().setMaterial(materials.get(part.material)!)
  const pos = g.getAttribute('position') as THREE.BufferAttribute
  const nrm = g.getAttribute('normal') as THREE.BufferAttribute
  prim.setAttribute(
    'POSITION',
    doc.createAccessor().setType('VEC3').setArray(new Float32Array(pos.array)).setBuffer(buffer),
  )
  prim.setAttribute(
    'NORMAL',
    doc.createAccessor().setType('VEC3').setArray(new Float32Array(nrm.array)).setBuffer(buffer),
  )
  prim.setIndices(
    doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Uint32Array(g.index!.array))
      .setBuffer(buffer),
  )
  const node = doc.createNode(part.name).setMesh(doc.createMesh().addPrimitive(prim))
  if (part.position) node.setTranslation(part.position)
  if (part.rotation) {
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(...part.rotation))
    node.setRotation([q.x, q.y, q.z, q.w])
  }
  parent.addChild(node)
  return node
}

/** glTF colour factors are linear; the specs are written in sRGB, as designers pick them. */
function linear(srgb: [number, number, number]): [number, number, number, number] {
  const c = new THREE.Color().setRGB(...srgb, THREE.SRGBColorSpace)
  return [c.r, c.g, c.b, 1]
}

/**
 * Finishes a designer exports in one file (KHR_materials_variants) for one material: each
 * variant's name and its look; the first is the material as the model has it.
 */
type Finishes = { material: string; variants: [string, MaterialSpec | null][] }

/** Adds animations to a model before it is compressed; gets the named part nodes. */
type Animate = (doc: Document, nodes: Map<string, Node>) => void

/**
 * An exploded view: one clip, `Explode`, 1 s long, that moves the named parts apart vertically by
 * these offsets (m), linearly. Its outputs are absolute translations, starting at the node's own.
 */
function explode(offsets: Record<string, number>): Animate {
  return (doc, nodes) => {
    const buffer = doc.getRoot().listBuffers()[0]
    const animation = doc.createAnimation('Explode')
    const times = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(new Float32Array([0, 1]))
      .setBuffer(buffer)
    for (const [name, dy] of Object.entries(offsets)) {
      const node = nodes.get(name)
      if (!node) throw new Error(`model generator: no part named ${name} to explode`)
      const [x, y, z] = node.getTranslation()
      const translations = doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([x, y, z, x, y + dy, z]))
        .setBuffer(buffer)
      const sampler = doc
        .createAnimationSampler()
        .setInput(times)
        .setOutput(translations)
        .setInterpolation('LINEAR')
      animation
        .addSampler(sampler)
        .addChannel(
          doc
            .createAnimationChannel()
            .setTargetNode(node)
            .setTargetPath('translation')
            .setSampler(sampler),
        )
    }
  }
}

async function writeModel(
  name: string,
  materials: Record<string, MaterialSpec>,
  parts: Part[],
  finishes?: Finishes,
  animate?: Animate,
) {
  const doc = new Document()
  doc.createBuffer()
  const scene = doc.createScene(name)
  const root = doc.createNode(name)
  scene.addChild(root)
  const mats = new Map<string, Material>()
  for (const [id, spec] of Object.entries(materials)) {
    mats.set(
      id,
      doc
        .createMaterial(id)
        .setBaseColorFactor(linear(spec.color))
        .setMetallicFactor(spec.metallic)
        .setRoughnessFactor(spec.roughness),
    )
  }
  const nodes = new Map<string, Node>()
  for (const part of parts) {
    const node = addPart(doc, root, part, mats)
    if (part.name) nodes.set(part.name, node)
  }
  if (finishes) {
    const extension = doc.createExtension(KHRMaterialsVariants)
    const own = mats.get(finishes.material)!
    const looks = finishes.variants.map(([variant, spec]) => ({
      variant: extension.createVariant(variant),
      material: spec
        ? doc
            .createMaterial(`${finishes.material} ${variant}`)
            .setBaseColorFactor(linear(spec.color))
            .setMetallicFactor(spec.metallic)
            .setRoughnessFactor(spec.roughness)
        : own,
    }))
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) {
        if (prim.getMaterial() !== own) continue
        const mappings = extension.createMappingList()
        for (const look of looks)
          mappings.addMapping(
            extension.createMapping().setMaterial(look.material).addVariant(look.variant),
          )
        prim.setExtension('KHR_materials_variants', mappings)
      }
  }

  animate?.(doc, nodes)

  doc.createExtension(KHRMeshQuantization).setRequired(true)
  doc.createExtension(EXTMeshoptCompression).setRequired(true)
  await MeshoptEncoder.ready
  await doc.transform(
    dedup(),
    weld(),
    prune(),
    reorder({ encoder: MeshoptEncoder }),
    meshopt({ encoder: MeshoptEncoder, level: 'medium' }),
  )
  const io = new NodeIO()
    .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization, KHRMaterialsVariants])
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder })
  const file = path.join(outDir, `${name}.glb`)
  await io.write(file, doc)
  const size = statSync(file).size
  if (size > MAX_BYTES) throw new Error(`${file} is ${size} bytes, over the ${MAX_BYTES} limit`)
  console.log(
    `models: wrote ${path.relative(process.cwd(), file)} (${(size / 1024).toFixed(1)} KB)`,
  )
}

/** A ribbed vessel: a lathe profile with a rippled wall, a lid and a knob. */
function vessel(): Promise<void> {
  const profile: THREE.Vector2[] = []
  for (let i = 0; i <= 48; i++) {
    const t = i / 48
    const r = 0.55 + 0.38 * Math.sin(Math.PI * t * 0.95) - 0.18 * t * t + 0.03 * Math.sin(t * 40)
    profile.push(new THREE.Vector2(Math.max(0.05, r), t * 1.6))
  }
  const body = new THREE.LatheGeometry(profile, 96)
  const lid = new THREE.CylinderGeometry(0.42, 0.46, 0.08, 64)
  const knob = new THREE.SphereGeometry(0.1, 24, 16)
  const foot = new THREE.TorusGeometry(0.5, 0.04, 12, 64)
  return writeModel(
    'vessel',
    {
      glaze: { color: [0.86, 0.42, 0.22], metallic: 0, roughness: 0.35 },
      brass: { color: [0.95, 0.78, 0.45], metallic: 1, roughness: 0.3 },
    },
    [
      { geometry: body, material: 'glaze' },
      { geometry: lid, material: 'glaze', position: [0, 1.64, 0] },
      { geometry: knob, material: 'brass', position: [0, 1.74, 0] },
      { geometry: foot, material: 'brass', position: [0, 0.02, 0], rotation: [Math.PI / 2, 0, 0] },
    ],
  )
}

/**
 * A desk lamp: base, two arms, a joint and a shade, in three lacquers (material variants).
 * Asymmetric, so turning it shows.
 */
function lamp(): Promise<void> {
  return writeModel(
    'lamp',
    {
      steel: { color: [0.18, 0.2, 0.26], metallic: 0.9, roughness: 0.35 },
      shade: { color: [0.24, 0.23, 0.86], metallic: 0, roughness: 0.5 },
      bulb: { color: [1, 0.85, 0.55], metallic: 0, roughness: 0.2 },
    },
    [
      { geometry: new THREE.CylinderGeometry(0.6, 0.7, 0.12, 64), material: 'steel' },
      {
        geometry: new THREE.CylinderGeometry(0.05, 0.05, 1.4, 16),
        material: 'steel',
        position: [0.25, 0.72, 0],
        rotation: [0, 0, -0.35],
      },
      {
        geometry: new THREE.SphereGeometry(0.09, 24, 16),
        material: 'shade',
        position: [0.49, 1.38, 0],
      },
      {
        geometry: new THREE.CylinderGeometry(0.04, 0.04, 1.1, 16),
        material: 'steel',
        position: [0.05, 1.7, 0],
        rotation: [0, 0, 1.0],
      },
      {
        geometry: new THREE.ConeGeometry(0.38, 0.55, 64, 1, true),
        material: 'shade',
        position: [-0.45, 1.85, 0],
        rotation: [0, 0, 0.9],
      },
      {
        geometry: new THREE.SphereGeometry(0.14, 24, 16),
        material: 'bulb',
        position: [-0.52, 1.78, 0],
      },
    ],
    // The shade and the joint in three lacquers: the model viewer offers them as a row.
    {
      material: 'shade',
      variants: [
        ['Blue', null],
        ['Red', { color: [0.84, 0.16, 0.14], metallic: 0, roughness: 0.5 }],
        ['White', { color: [0.93, 0.92, 0.88], metallic: 0, roughness: 0.55 }],
      ],
    },
  )
}

/** The speaker's barrel: the outer radius (m) of its fabric shell at height y. */
const barrel = (y: number) => 0.262 + 0.025 * Math.sin((Math.PI * (y - 0.05)) / 0.81)

/**
 * A fabric shell wall from y0 to y1 (the node sits at y0): a lathe ring 2 cm thick, up its outer
 * side and down its inner one, so that it reads as a wall when the speaker opens.
 */
function shellWall(y0: number, y1: number): THREE.LatheGeometry {
  const steps = 5
  const outer: THREE.Vector2[] = []
  for (let i = 0; i <= steps; i++) {
    const y = y0 + ((y1 - y0) * i) / steps
    outer.push(new THREE.Vector2(barrel(y), y - y0))
  }
  const inner = outer.map((p) => new THREE.Vector2(p.x - 0.02, p.y)).reverse()
  return new THREE.LatheGeometry([...outer, ...inner, outer[0].clone()], 56)
}

/**
 * A portable speaker for the scroll story: base, two fabric shells, a driver and a battery inside,
 * a cap with a knob, a ring and a carry loop; buttons and a badge on the front (+z), so turning
 * it shows. Its `Explode` clip moves the parts apart to show the inside; the fabric comes in
 * three finishes.
 */
function speaker(): Promise<void> {
  // The driver: magnet, cone and surround, and a dust cap, turned about y (its node is at the rim's
  // foot); a closed profile, so that it reads from above and below.
  const driver = new THREE.LatheGeometry(
    [
      [0.001, -0.08],
      [0.07, -0.08],
      [0.07, -0.03],
      [0.225, 0.05],
      [0.235, 0.062],
      [0.222, 0.072],
      [0.205, 0.062],
      [0.06, 0.005],
      [0.045, 0.03],
      [0.02, 0.042],
      [0.001, 0.045],
    ].map(([x, y]) => new THREE.Vector2(x, y)),
    48,
  )
  // The cap: a disc with a knob, a ring round it and a carry loop at the back.
  const ring = new THREE.TorusGeometry(0.1, 0.01, 6, 40).rotateX(Math.PI / 2).translate(0, 0.042, 0)
  const loop = new THREE.TorusGeometry(0.08, 0.015, 8, 20, Math.PI).translate(0, 0.04, -0.13)
  const cap = mergeGeometries([
    new THREE.CylinderGeometry(0.25, 0.262, 0.04, 56).translate(0, 0.02, 0),
    new THREE.CylinderGeometry(0.06, 0.065, 0.04, 32).translate(0, 0.06, 0),
    ring,
    loop,
  ])
  // Three round buttons in a column on the front of the upper shell.
  const buttons = mergeGeometries(
    [-0.07, 0, 0.07].map((dy) =>
      new THREE.CylinderGeometry(0.022, 0.022, 0.02, 16).rotateX(Math.PI / 2).translate(0, dy, 0),
    ),
  )
  return writeModel(
    'speaker',
    {
      shell: { color: [0.84, 0.74, 0.58], metallic: 0, roughness: 0.8 },
      metal: { color: [0.8, 0.81, 0.83], metallic: 1, roughness: 0.35 },
      driver: { color: [0.1, 0.1, 0.11], metallic: 0, roughness: 0.6 },
      battery: { color: [0.95, 0.45, 0.1], metallic: 0, roughness: 0.5 },
    },
    [
      {
        name: 'base',
        geometry: new THREE.CylinderGeometry(0.3, 0.31, 0.05, 56),
        material: 'metal',
        position: [0, 0.025, 0],
      },
      {
        name: 'lower-shell',
        geometry: shellWall(0.05, 0.3),
        material: 'shell',
        position: [0, 0.05, 0],
      },
      {
        name: 'badge',
        geometry: new THREE.BoxGeometry(0.12, 0.035, 0.02),
        material: 'metal',
        position: [0, 0.18, barrel(0.18)],
      },
      {
        name: 'battery',
        geometry: new THREE.BoxGeometry(0.2, 0.22, 0.12),
        material: 'battery',
        position: [0, 0.25, 0],
      },
      { name: 'driver', geometry: driver, material: 'driver', position: [0, 0.44, 0] },
      {
        name: 'upper-shell',
        geometry: shellWall(0.3, 0.86),
        material: 'shell',
        position: [0, 0.3, 0],
      },
      { name: 'buttons', geometry: buttons, material: 'metal', position: [0, 0.65, barrel(0.65)] },
      { name: 'cap', geometry: cap, material: 'metal', position: [0, 0.86, 0] },
    ],
    // The fabric in three colours: the model viewer offers them as a row.
    {
      material: 'shell',
      variants: [
        ['Sand', null],
        ['Graphite', { color: [0.24, 0.25, 0.27], metallic: 0, roughness: 0.8 }],
        ['Moss', { color: [0.36, 0.46, 0.28], metallic: 0, roughness: 0.85 }],
      ],
    },
    // The exploded view: the cap and the upper shell (with its buttons) up, the driver up a
    // little, the base down; the lower shell and the battery stay.
    explode({ cap: 0.6, 'upper-shell': 0.35, buttons: 0.35, driver: 0.1, base: -0.25 }),
  )
}

/**
 * Posters: the LCP image and the fallback of each scene, drawn as SVG and encoded to WebP with
 * sharp (Next's own image library), so they need no renderer and no network.
 */
async function poster(
  name: string,
  background: [string, string],
  shape: string,
  [width, height]: [number, number] = [1200, 800],
) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <radialGradient id="bg" cx="50%" cy="45%" r="75%">
      <stop offset="0" stop-color="${background[0]}"/><stop offset="1" stop-color="${background[1]}"/>
    </radialGradient>
    <linearGradient id="fg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/><stop offset="1" stop-color="#ffffff" stop-opacity="0.15"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <g transform="translate(${width / 2} ${height / 2})">${shape}</g>
</svg>`
  const sharp = (await import('sharp')).default
  const file = path.join(posterDir, `${name}.webp`)
  await sharp(Buffer.from(svg)).webp({ quality: 72 }).toFile(file)
  console.log(
    `models: wrote ${path.relative(process.cwd(), file)} (${(statSync(file).size / 1024).toFixed(1)} KB)`,
  )
}

const posterDir = path.join(process.cwd(), 'content/media/posters')

/**
 * One still of the speaker for the scroll story, drawn flat in SVG: parts as shaded cylinders seen
 * from a little above (`tilt`, the ellipses' height over width), turned by `angle` (rad, the front
 * to the right), `scale` px a metre, centred on height `centre` (m); `exploded`, its parts apart as
 * the `Explode` clip leaves them.
 */
function speakerStill(options: {
  fabric: [string, string]
  angle: number
  tilt: number
  scale: number
  centre: number
  exploded?: boolean
}): string {
  const { fabric, angle, tilt, scale: s, centre, exploded = false } = options
  // Apart, the parts move as the `Explode` clip moves them, a little further (the upper shell and
  // the cap), so that the upper shell does not hide the driver's cone in a view from above.
  const apart = exploded
    ? { base: -0.25, driver: 0.12, upper: 0.5, cap: 0.8 }
    : { base: 0, driver: 0, upper: 0, cap: 0 }
  const Y = (y: number) => ((centre - y) * s).toFixed(1)
  const n = (v: number) => (v * s).toFixed(1)
  const metal: [string, string] = ['#b4b9c1', '#e4e7eb']
  const dark: [string, string] = ['#26262b', '#3c3c43']
  const out: string[] = [
    `<defs><linearGradient id="shade" x1="0" x2="1"><stop offset="0" stop-color="#000" stop-opacity="0.3"/><stop offset="0.35" stop-color="#fff" stop-opacity="0.16"/><stop offset="1" stop-color="#000" stop-opacity="0.38"/></linearGradient>`,
    `<radialGradient id="cone" cx="50%" cy="45%" r="60%"><stop offset="0" stop-color="#55555e"/><stop offset="1" stop-color="#141417"/></radialGradient></defs>`,
  ]
  // A solid of revolution from y0 (radius r0) to y1 (radius r1), bulging to rm half-way, with its
  // top face (or, open, its rim and dark inside).
  const solid = (
    y0: number,
    y1: number,
    r0: number,
    r1: number,
    colour: [string, string],
    top: 'closed' | 'open' | 'none' = 'closed',
    rm = (r0 + r1) / 2,
  ) => {
    const [a, b] = [Y(y0), Y(y1)]
    const q = 2 * rm - (r0 + r1) / 2
    const side = `M${n(-r1)} ${b} Q${n(-q)} ${Y((y0 + y1) / 2)} ${n(-r0)} ${a} A${n(r0)} ${n(r0 * tilt)} 0 0 0 ${n(r0)} ${a} Q${n(q)} ${Y((y0 + y1) / 2)} ${n(r1)} ${b} A${n(r1)} ${n(r1 * tilt)} 0 0 0 ${n(-r1)} ${b}Z`
    out.push(`<path d="${side}" fill="${colour[0]}"/><path d="${side}" fill="url(#shade)"/>`)
    if (top === 'none') return
    out.push(`<ellipse cy="${b}" rx="${n(r1)}" ry="${n(r1 * tilt)}" fill="${colour[1]}"/>`)
    if (top === 'open')
      out.push(
        `<ellipse cy="${b}" rx="${n(r1 - 0.02)}" ry="${n((r1 - 0.02) * tilt)}" fill="#17171b"/>`,
      )
  }
  // A point on the model (x, y, z) as seen: turned by the angle, nearer points lower.
  const at = (x: number, y: number, z: number): [number, number] => {
    const [c, sn] = [Math.cos(angle), Math.sin(angle)]
    return [(x * c + z * sn) * s, (centre - y) * s + (-x * sn + z * c) * tilt * s]
  }
  const front = Math.cos(angle)
  // A shadow on the floor under the base.
  out.push(
    `<ellipse cy="${Y(apart.base)}" rx="${n(0.42)}" ry="${n(0.42 * tilt + 0.03)}" fill="#000" opacity="0.16"/>`,
  )
  // The base.
  solid(apart.base, 0.05 + apart.base, 0.31, 0.3, metal)
  // The lower shell, with its badge on the front.
  solid(0.05, 0.3, barrel(0.05), barrel(0.3), fabric, exploded ? 'open' : 'none', barrel(0.175))
  if (front > 0.15) {
    const [x, y] = at(0, 0.18, barrel(0.18))
    out.push(
      `<rect x="${(x - 0.06 * s * front).toFixed(1)}" y="${(y - 0.0175 * s).toFixed(1)}" width="${n(0.12 * front)}" height="${n(0.035)}" rx="${n(0.008)}" fill="${metal[1]}" stroke="#8d939c" stroke-width="2"/>`,
    )
  }
  if (exploded) {
    // The battery, showing above the lower shell's rim: the parts below it are inside.
    const rim = Y(0.3)
    const r = barrel(0.3) - 0.02
    out.push(
      `<clipPath id="rim"><path d="M-2000 -2000 H2000 V${rim} H${n(r)} A${n(r)} ${n(r * tilt)} 0 0 1 ${n(-r)} ${rim} H-2000Z"/></clipPath><g clip-path="url(#rim)">`,
    )
    const corner = (x: number, y: number, z: number) =>
      at(x, y, z)
        .map((v) => v.toFixed(1))
        .join(' ')
    const face = (points: [number, number, number][], fill: string) =>
      out.push(`<path d="M${points.map((p) => corner(...p)).join(' L')}Z" fill="${fill}"/>`)
    const [bx, by0, by1, bz] = [0.1, 0.14, 0.36, 0.06]
    face(
      [
        [-bx, by1, -bz],
        [bx, by1, -bz],
        [bx, by1, bz],
        [-bx, by1, bz],
      ],
      '#ffb070',
    )
    face(
      [
        [-bx, by0, bz],
        [bx, by0, bz],
        [bx, by1, bz],
        [-bx, by1, bz],
      ],
      '#f07318',
    )
    const sideX = angle > 0 ? -bx : bx
    face(
      [
        [sideX, by0, -bz],
        [sideX, by0, bz],
        [sideX, by1, bz],
        [sideX, by1, -bz],
      ],
      '#b8520c',
    )
    out.push('</g>')
    // The driver: magnet, the cone's back, its surround and cone, and the dust cap.
    const d = 0.44 + apart.driver
    solid(d - 0.08, d - 0.03, 0.07, 0.07, dark, 'none')
    solid(d - 0.03, d + 0.062, 0.07, 0.235, dark, 'none')
    out.push(
      `<ellipse cy="${Y(d + 0.066)}" rx="${n(0.232)}" ry="${n(0.232 * tilt)}" fill="#4a4a52"/>`,
      `<ellipse cy="${Y(d + 0.06)}" rx="${n(0.205)}" ry="${n(0.205 * tilt)}" fill="url(#cone)"/>`,
      `<ellipse cy="${Y(d + 0.03)}" rx="${n(0.05)}" ry="${n(0.05 * tilt + 0.012)}" fill="#2e2e35"/>`,
    )
  }
  // The upper shell and its buttons.
  const u = apart.upper
  solid(
    0.3 + u,
    0.86 + u,
    barrel(0.3),
    barrel(0.86),
    fabric,
    exploded ? 'open' : 'none',
    barrel(0.58),
  )
  if (front > 0.15)
    for (const b of [-0.07, 0, 0.07]) {
      const [x, y] = at(0, 0.65 + u + b, barrel(0.65))
      out.push(
        `<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${n(0.022 * front)}" ry="${n(0.022)}" fill="${metal[1]}" stroke="#8d939c" stroke-width="2"/>`,
      )
    }
  // The cap: its disc, the ring, the carry loop behind the knob, and the knob.
  const c = 0.86 + apart.cap
  solid(c, c + 0.04, 0.262, 0.25, metal)
  out.push(
    `<ellipse cy="${Y(c + 0.042)}" rx="${n(0.1)}" ry="${n(0.1 * tilt)}" fill="none" stroke="#9aa0a9" stroke-width="${n(0.018)}"/>`,
  )
  const [lx, ly] = at(0, c + 0.04, -0.13)
  const lr = 0.08 * Math.abs(front)
  out.push(
    `<path d="M${(lx - lr * s).toFixed(1)} ${ly.toFixed(1)} A${n(lr)} ${n(0.08)} 0 0 1 ${(lx + lr * s).toFixed(1)} ${ly.toFixed(1)}" fill="none" stroke="#9aa0a9" stroke-width="${n(0.03)}" stroke-linecap="round"/>`,
  )
  solid(c + 0.04, c + 0.08, 0.065, 0.06, metal)
  return out.join('')
}

async function main() {
  mkdirSync(outDir, { recursive: true })
  mkdirSync(posterDir, { recursive: true })
  await vessel()
  await lamp()
  const ring = (r: number, rot: number, color: string) =>
    `<ellipse rx="${r}" ry="${r * 0.38}" transform="rotate(${rot})" fill="none" stroke="${color}" stroke-width="26"/>`
  await poster(
    'hero-knot',
    ['#3d3adb', '#0d0c2b'],
    ring(230, -20, 'url(#fg)') + ring(200, 40, '#ffb86b') + ring(170, 100, 'url(#fg)'),
  )
  await poster(
    'hero-vessel',
    ['#f4e7da', '#c9b29b'],
    '<path d="M-120 250 C-260 120 -230 -120 -110 -230 L110 -230 C230 -120 260 120 120 250 Z" fill="#db6b38"/><rect x="-100" y="-262" width="200" height="30" rx="8" fill="#db6b38"/><circle cy="-286" r="26" fill="#f2c772"/>',
  )
  await poster(
    'viewer-lamp',
    ['#e9ecf5', '#b9c0d6'],
    '<rect x="-150" y="250" width="300" height="40" rx="12" fill="#2e3342"/><path d="M-10 250 L80 20 L-160 -120" fill="none" stroke="#2e3342" stroke-width="18"/><path d="M-300 -40 L-120 -260 L-40 -60 Z" fill="#3d3adb"/>',
  )
  // The scroll story's four steps, one still each (the fallback when there is no WebGL).
  await speaker()
  const sand: [string, string] = ['#d6bd94', '#e6d3b2']
  const moss: [string, string] = ['#5c7547', '#74905d']
  const square: [number, number] = [1000, 1000]
  // 1. The whole speaker from the front.
  await poster(
    'story-1',
    ['#fbf3e6', '#e0ccad'],
    speakerStill({ fabric: sand, angle: 0, tilt: 0.12, scale: 640, centre: 0.5 }),
    square,
  )
  // 2. Turned to three-quarters, closer.
  await poster(
    'story-2',
    ['#e3ebf4', '#8ea5bf'],
    speakerStill({ fabric: sand, angle: 0.8, tilt: 0.28, scale: 1000, centre: 0.6 }),
    square,
  )
  // 3. Exploded: the driver and the battery inside show.
  await poster(
    'story-3',
    ['#434856', '#15171c'],
    speakerStill({ fabric: sand, angle: 0.5, tilt: 0.3, scale: 440, centre: 0.76, exploded: true }),
    square,
  )
  // 4. Together again, in the Moss finish.
  await poster(
    'story-4',
    ['#f2f4e9', '#c3ceac'],
    speakerStill({ fabric: moss, angle: -0.35, tilt: 0.15, scale: 640, centre: 0.5 }),
    square,
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
