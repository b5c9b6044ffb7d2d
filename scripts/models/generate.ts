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

/** Each model must stay under this size once compressed (issue 5). */
const MAX_BYTES = 300 * 1024
const outDir = path.join(process.cwd(), 'content/media/models')

type Part = {
  geometry: THREE.BufferGeometry
  material: string
  position?: [number, number, number]
  rotation?: [number, number, number]
}
type MaterialSpec = { color: [number, number, number]; metallic: number; roughness: number }

function addPart(doc: Document, parent: Node, part: Part, materials: Map<string, Material>) {
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
  const node = doc.createNode().setMesh(doc.createMesh().addPrimitive(prim))
  if (part.position) node.setTranslation(part.position)
  if (part.rotation) {
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(...part.rotation))
    node.setRotation([q.x, q.y, q.z, q.w])
  }
  parent.addChild(node)
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

async function writeModel(
  name: string,
  materials: Record<string, MaterialSpec>,
  parts: Part[],
  finishes?: Finishes,
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
  for (const part of parts) addPart(doc, root, part, mats)
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

/**
 * Posters: the LCP image and the fallback of each scene, drawn as SVG and encoded to WebP with
 * sharp (Next's own image library), so they need no renderer and no network.
 */
async function poster(name: string, background: [string, string], shape: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
  <defs>
    <radialGradient id="bg" cx="50%" cy="45%" r="75%">
      <stop offset="0" stop-color="${background[0]}"/><stop offset="1" stop-color="${background[1]}"/>
    </radialGradient>
    <linearGradient id="fg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/><stop offset="1" stop-color="#ffffff" stop-opacity="0.15"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="800" fill="url(#bg)"/>
  <g transform="translate(600 400)">${shape}</g>
</svg>`
  const sharp = (await import('sharp')).default
  const file = path.join(posterDir, `${name}.webp`)
  await sharp(Buffer.from(svg)).webp({ quality: 72 }).toFile(file)
  console.log(
    `models: wrote ${path.relative(process.cwd(), file)} (${(statSync(file).size / 1024).toFixed(1)} KB)`,
  )
}

const posterDir = path.join(process.cwd(), 'content/media/posters')

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
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
