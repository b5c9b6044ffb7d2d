// A model viewer's hotspots, as an editor writes them in the slice (src/slices/ModelViewer): a
// label, a detail, a position and a surface normal in the model's own coordinates (glTF: metres,
// y up), and an optional view to turn to. `content:check` reads them through these parsers, as
// the renderer will when it pins them on the model. Imports no three.js.
//
// The text formats are `<model-viewer>`'s (data-position, data-normal, camera-orbit), so values
// a studio already wrote for it paste in as they are: `0.51 1.4 0.09`, `0.51m 1.4m 0.09m`,
// `30deg 75deg 2.5m`. Hand-written rather than a schema library's: the whole grammar is three
// numbers with an optional unit, and each refusal says which part is wrong in an editor's words.

/** Three numbers: x, y, z. */
export type Vec3 = [number, number, number]

/** A camera orbit around the model: angles in radians, distance in metres (null: the viewer's). */
export type Orbit = { azimuth: number; polar: number; distance: number | null }

/** What a parse gives: the value, or a sentence saying what is wrong (after "is …"). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string }

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i

function quoted(text: string): string {
  return text.length > 40 ? `"${text.slice(0, 37)}..."` : `"${text}"`
}

/** Splits on spaces or commas, as `0.5 1 0`, `0.5, 1, 0` and `0.5m 1m 0m` are all written. */
function parts(text: string): string[] {
  return text
    .trim()
    .split(/[\s,]+/)
    .filter((part) => part !== '')
}

/** Three numbers in metres (`0.51 1.4 0.09`; each may end in `m`). */
export function parseVec3(text: string | null | undefined): Parsed<Vec3> {
  const value = (text ?? '').trim()
  if (!value) return { ok: false, reason: 'empty: it needs three numbers, x y z (e.g. 0 1.2 0.3)' }
  const found = parts(value)
  if (found.length !== 3)
    return {
      ok: false,
      reason: `${quoted(value)}, which is ${found.length} value${found.length === 1 ? '' : 's'}: it needs three numbers, x y z (e.g. 0 1.2 0.3)`,
    }
  const numbers: number[] = []
  for (const part of found) {
    const bare = part.replace(/m$/i, '')
    if (!NUMBER.test(bare))
      return {
        ok: false,
        reason: `${quoted(value)}: "${part}" is not a number (write x y z in metres, e.g. 0 1.2 0.3)`,
      }
    numbers.push(Number(bare))
  }
  return { ok: true, value: numbers as Vec3 }
}

/** A surface normal: three numbers that are not all zero, made one unit long. */
export function parseNormal(text: string | null | undefined): Parsed<Vec3> {
  const parsed = parseVec3(text)
  if (!parsed.ok) return parsed
  const [x, y, z] = parsed.value
  const length = Math.hypot(x, y, z)
  if (length === 0)
    return {
      ok: false,
      reason: `${quoted(String(text).trim())}, which points nowhere: a normal is the way the surface faces (e.g. 0 0 1)`,
    }
  return { ok: true, value: [x / length, y / length, z / length] }
}

/** An angle: `30deg`, `0.5rad`, or a bare number in degrees. In radians. */
function angle(part: string): number | null {
  const match = /^(.*?)(deg|rad)?$/i.exec(part)!
  if (!NUMBER.test(match[1]!)) return null
  const value = Number(match[1])
  return match[2]?.toLowerCase() === 'rad' ? value : (value * Math.PI) / 180
}

/**
 * A view: azimuth and polar angle (`30deg 75deg`, as `<model-viewer>`'s camera-orbit), then an
 * optional distance in metres (`2.5m`; `auto` or nothing keeps the viewer's).
 */
export function parseOrbit(text: string | null | undefined): Parsed<Orbit> {
  const value = (text ?? '').trim()
  const found = parts(value)
  const expected =
    'write the azimuth and polar angle in degrees, then the distance in metres if it changes (e.g. 30deg 75deg 2.5m)'
  if (found.length < 2 || found.length > 3)
    return { ok: false, reason: `${quoted(value)}: ${expected}` }
  const azimuth = angle(found[0]!)
  const polar = angle(found[1]!)
  if (azimuth === null || polar === null)
    return {
      ok: false,
      reason: `${quoted(value)}: "${azimuth === null ? found[0] : found[1]}" is not an angle; ${expected}`,
    }
  if (polar < 0 || polar > Math.PI)
    return {
      ok: false,
      reason: `${quoted(value)}: the polar angle must be between 0deg (from above) and 180deg (from below)`,
    }
  let distance: number | null = null
  const third = found[2]
  if (third !== undefined && third.toLowerCase() !== 'auto') {
    const bare = third.replace(/m$/i, '')
    distance = NUMBER.test(bare) ? Number(bare) : NaN
    if (!(distance > 0))
      return {
        ok: false,
        reason: `${quoted(value)}: "${third}" is not a distance; ${expected}`,
      }
  }
  return { ok: true, value: { azimuth, polar, distance } }
}

/** One hotspot's fields as the Content API gives them (any may be null or missing). */
export type HotspotFields = {
  label?: string | null
  position?: string | null
  normal?: string | null
  view?: string | null
}

/**
 * Each problem of one hotspot's fields, by field name, as `content:check` names them: the label
 * is needed (its button is named by it), the position and normal are three numbers, the view an
 * orbit or nothing.
 */
export function hotspotProblems(fields: HotspotFields): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = []
  if (!fields.label?.trim())
    problems.push({
      field: 'label',
      message: 'is empty: a hotspot needs a label (its button is named by it)',
    })
  const position = parseVec3(fields.position)
  if (!position.ok) problems.push({ field: 'position', message: `is ${position.reason}` })
  const normal = parseNormal(fields.normal)
  if (!normal.ok) problems.push({ field: 'normal', message: `is ${normal.reason}` })
  if (fields.view?.trim()) {
    const view = parseOrbit(fields.view)
    if (!view.ok) problems.push({ field: 'view', message: `is ${view.reason}` })
  }
  return problems
}

/** How far outside a box a point is, in metres (0 inside), per axis. */
export function outside(point: Vec3, min: Vec3, max: Vec3): Vec3 {
  return point.map((c, k) => Math.max(min[k]! - c, c - max[k]!, 0)) as Vec3
}

/**
 * How far outside the model's bounds a hotspot may sit before `content:check` refuses it, as a
 * share of the model's largest side. A point picked on the surface is inside the bounds; this
 * leaves room for one typed by hand a little off, and refuses one in the wrong unit or model.
 */
export const BOUNDS_MARGIN = 0.25
