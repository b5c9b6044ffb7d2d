// Generates the sample environment in content/media/environments/: `studio.hdr`, a photographic
// studio as an equirectangular Radiance HDR (2048 × 1024), which the showcase's viewer is lit by.
// Run `npm run environments`. Procedural, as the sample models are, so the repository needs no
// binary source and no network: a warm grey cyclorama, a large softbox overhead and in front, a
// tall strip light to the left, a cool rim panel behind to the right, and two small kicker lights.
// Each is one flat colour, so the file's run-length coding keeps it small.
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { writeHdr } from '../../services/content-api/environments/hdr'

const WIDTH = 2048
const HEIGHT = 1024
const outDir = path.join(process.cwd(), 'content/media/environments')

/** A light: where it is (azimuth and elevation ranges, degrees; 0° is in front) and its colour. */
type Light = {
  azimuth: [number, number]
  elevation: [number, number]
  rgb: [number, number, number]
}

const LIGHTS: Light[] = [
  // The key: a large softbox overhead, in front and a little to the right.
  { azimuth: [-10, 40], elevation: [40, 75], rgb: [22, 21, 19.5] },
  // A tall strip to the left, for a long highlight down a model's side.
  { azimuth: [-110, -95], elevation: [-5, 45], rgb: [9, 8.6, 8] },
  // A cool rim panel behind, to the right.
  { azimuth: [140, 165], elevation: [5, 35], rgb: [4.5, 5.2, 6.5] },
  // Two small kickers low in front, for a glint.
  { azimuth: [-40, -34], elevation: [8, 14], rgb: [14, 13, 12] },
  { azimuth: [58, 63], elevation: [10, 15], rgb: [12, 12, 13] },
]

/** The studio's walls, above the horizon, and its floor, a warm grey cyclorama. */
const WALL: [number, number, number] = [0.32, 0.31, 0.3]
const FLOOR: [number, number, number] = [0.42, 0.38, 0.34]
const CEILING: [number, number, number] = [0.12, 0.12, 0.12]

function colour(azimuth: number, elevation: number): [number, number, number] {
  for (const light of LIGHTS)
    if (
      azimuth >= light.azimuth[0] &&
      azimuth <= light.azimuth[1] &&
      elevation >= light.elevation[0] &&
      elevation <= light.elevation[1]
    )
      return light.rgb
  if (elevation < 0) return FLOOR
  if (elevation > 70) return CEILING
  return WALL
}

const rgb = new Float32Array(WIDTH * HEIGHT * 3)
for (let y = 0; y < HEIGHT; y++) {
  // Row 0 is straight up; the middle column looks ahead (three's equirectangular mapping).
  const elevation = 90 - ((y + 0.5) / HEIGHT) * 180
  for (let x = 0; x < WIDTH; x++) {
    const azimuth = ((x + 0.5) / WIDTH) * 360 - 180
    rgb.set(colour(azimuth, elevation), (y * WIDTH + x) * 3)
  }
}
mkdirSync(outDir, { recursive: true })
const file = path.join(outDir, 'studio.hdr')
writeFileSync(file, writeHdr(WIDTH, HEIGHT, rgb))
console.log(
  `environments: ${path.relative(process.cwd(), file)} ${WIDTH} × ${HEIGHT}, ${Math.round(statSync(file).size / 1024)} KB`,
)
