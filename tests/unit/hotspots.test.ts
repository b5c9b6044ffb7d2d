import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { checkHotspots } from '@services/content-api/hotspots-check'
import { checkModels } from '@services/content-api/models-check'
import { checkFolder } from '@services/content-api/validate'
import { hotspotProblems, parseNormal, parseOrbit, parseVec3 } from '@rules/hotspots'

/**
 * A model viewer's hotspots (rules/hotspots.ts): the position, normal and view an editor
 * types, read the same way by the page and by `content:check`, which names the document, the
 * slice and the field of each that is wrong, and refuses a position far off its model.
 */

const degrees = (d: number) => (d * Math.PI) / 180

describe('the fields an editor types', () => {
  it('reads a position as <model-viewer> writes it, or as typed by hand', () => {
    expect(parseVec3('0 1.2 0.3')).toEqual({ ok: true, value: [0, 1.2, 0.3] })
    expect(parseVec3(' 0.5m, 1m,0m ')).toEqual({ ok: true, value: [0.5, 1, 0] })
    expect(parseVec3('-1e-2 +2 .5')).toEqual({ ok: true, value: [-0.01, 2, 0.5] })
  })

  it('reads back any three finite numbers written with spaces', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true })
    fc.assert(
      fc.property(fc.tuple(finite, finite, finite), (xyz) => {
        // String(-0) is "0".
        const parsed = parseVec3(xyz.map(String).join(' '))
        expect(parsed).toEqual({ ok: true, value: xyz.map((c) => (Object.is(c, -0) ? 0 : c)) })
      }),
    )
  })

  it('refuses what is not three numbers, saying what it found', () => {
    expect(parseVec3('')).toEqual({
      ok: false,
      reason: 'empty: it needs three numbers, x y z (e.g. 0 1.2 0.3)',
    })
    expect(parseVec3(null).ok).toBe(false)
    expect(parseVec3('1 2')).toEqual({
      ok: false,
      reason: '"1 2", which is 2 values: it needs three numbers, x y z (e.g. 0 1.2 0.3)',
    })
    expect(parseVec3('1 2 3 4').ok).toBe(false)
    expect(parseVec3('1 two 3')).toEqual({
      ok: false,
      reason: '"1 two 3": "two" is not a number (write x y z in metres, e.g. 0 1.2 0.3)',
    })
    expect(parseVec3('1cm 2cm 3cm').ok).toBe(false)
    expect(parseVec3('NaN 0 0').ok).toBe(false)
    expect(parseVec3('Infinity 0 0').ok).toBe(false)
  })

  it('makes a normal one unit long, and refuses one that points nowhere', () => {
    expect(parseNormal('0 0 2')).toEqual({ ok: true, value: [0, 0, 1] })
    const [x, y, z] = (parseNormal('3 4 0') as { value: number[] }).value
    expect([x, y, z]).toEqual([0.6, 0.8, 0])
    expect(parseNormal('0 0 0')).toEqual({
      ok: false,
      reason: '"0 0 0", which points nowhere: a normal is the way the surface faces (e.g. 0 0 1)',
    })
  })

  it('reads a view as <model-viewer>’s camera-orbit: two angles, then a distance or none', () => {
    expect(parseOrbit('30deg 75deg 2.5m')).toEqual({
      ok: true,
      value: { azimuth: degrees(30), polar: degrees(75), distance: 2.5 },
    })
    expect(parseOrbit('-30deg 65deg')).toEqual({
      ok: true,
      value: { azimuth: degrees(-30), polar: degrees(65), distance: null },
    })
    expect(parseOrbit('0.5rad 1rad auto')).toEqual({
      ok: true,
      value: { azimuth: 0.5, polar: 1, distance: null },
    })
    expect(parseOrbit('30 75 2')).toEqual({
      ok: true,
      value: { azimuth: degrees(30), polar: degrees(75), distance: 2 },
    })
  })

  it('refuses a view with one angle, a polar angle past the poles, or no distance', () => {
    expect(parseOrbit('30deg')).toEqual({
      ok: false,
      reason:
        '"30deg": write the azimuth and polar angle in degrees, then the distance in metres if it changes (e.g. 30deg 75deg 2.5m)',
    })
    expect(parseOrbit('30deg 200deg')).toEqual({
      ok: false,
      reason:
        '"30deg 200deg": the polar angle must be between 0deg (from above) and 180deg (from below)',
    })
    expect(parseOrbit('30deg up').ok).toBe(false)
    expect(parseOrbit('30deg 75deg -1m').ok).toBe(false)
    expect(parseOrbit('30deg 75deg far').ok).toBe(false)
  })

  it('names each field of a hotspot that is wrong; the view may be left empty', () => {
    expect(
      hotspotProblems({ label: 'Joint', position: '0 1 0', normal: '0 0 1', view: '' }),
    ).toEqual([])
    expect(hotspotProblems({ label: ' ', position: '0 1', normal: null, view: 'left' })).toEqual([
      { field: 'label', message: 'is empty: a hotspot needs a label (its button is named by it)' },
      {
        field: 'position',
        message: 'is "0 1", which is 2 values: it needs three numbers, x y z (e.g. 0 1.2 0.3)',
      },
      { field: 'normal', message: 'is empty: it needs three numbers, x y z (e.g. 0 1.2 0.3)' },
      {
        field: 'view',
        message:
          'is "left": write the azimuth and polar angle in degrees, then the distance in metres if it changes (e.g. 30deg 75deg 2.5m)',
      },
    ])
  })
})

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const SHOWCASE = path.join('documents', 'page', 'showcase', 'en-us.json')

/** A copy of the sample content, with the showcase's model viewer hotspots changed by `change`. */
function sampleWith(change: (hotspots: Record<string, unknown>[]) => void): string {
  return sampleWithViewer((primary) => change(primary.hotspots as Record<string, unknown>[]))
}

/** A copy of the sample content, with the showcase's model viewer's fields changed by `change`. */
function sampleWithViewer(change: (primary: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-hotspots-'))
  dirs.push(dir)
  cpSync('content', dir, { recursive: true })
  const file = path.join(dir, SHOWCASE)
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  const viewer = doc.data.slices.find(
    (s: { slice_type: string }) => s.slice_type === 'model_viewer',
  )
  change(viewer.primary)
  writeFileSync(file, JSON.stringify(doc))
  return dir
}

/** Where the showcase's model viewer is, as content:check names it. */
function viewerPath(): string {
  const doc = JSON.parse(readFileSync(path.join('content', SHOWCASE), 'utf8'))
  const i = doc.data.slices.findIndex(
    (s: { slice_type: string }) => s.slice_type === 'model_viewer',
  )
  return `$.data.slices[${i}]`
}

async function hotspotReport(dir: string) {
  const { store, releases } = checkFolder(dir, '.')
  return checkHotspots([store, ...releases], await checkModels(dir))
}

describe('content:check and the hotspots', () => {
  it('passes the sample showcase, whose viewer has three hotspots in each language', async () => {
    expect(await hotspotReport('content')).toEqual([])
    for (const lang of ['en-us', 'fr-fr']) {
      const doc = JSON.parse(
        readFileSync(path.join('content', 'documents', 'page', 'showcase', `${lang}.json`), 'utf8'),
      )
      const viewer = doc.data.slices.find(
        (s: { slice_type: string }) => s.slice_type === 'model_viewer',
      )
      expect(viewer.primary.hotspots, lang).toHaveLength(3)
      for (const hotspot of viewer.primary.hotspots)
        expect(hotspotProblems(hotspot), `${lang}: ${hotspot.label}`).toEqual([])
    }
  })

  it('names the document, the slice and the field of each wrong value', async () => {
    const dir = sampleWith((hotspots) => {
      hotspots[0]!.position = '0 0.06'
      hotspots[1]!.normal = '0 0 0'
      hotspots[2]!.view = '30deg'
    })
    const at = `${viewerPath()}.primary.hotspots`
    expect(await hotspotReport(dir)).toEqual([
      {
        file: SHOWCASE,
        path: `${at}[0].position`,
        message:
          '(slice model_viewer, hotspot 1 "Weighted steel base") is "0 0.06", which is 2 values: it needs three numbers, x y z (e.g. 0 1.2 0.3)',
      },
      {
        file: SHOWCASE,
        path: `${at}[1].normal`,
        message:
          '(slice model_viewer, hotspot 2 "Friction joint") is "0 0 0", which points nowhere: a normal is the way the surface faces (e.g. 0 0 1)',
      },
      {
        file: SHOWCASE,
        path: `${at}[2].view`,
        message:
          '(slice model_viewer, hotspot 3 "Spun aluminium shade") is "30deg": write the azimuth and polar angle in degrees, then the distance in metres if it changes (e.g. 30deg 75deg 2.5m)',
      },
    ])
  })

  it('refuses a position far outside the model, as one typed in centimetres; a near one passes', async () => {
    const dir = sampleWith((hotspots) => {
      hotspots[0]!.position = '0 6 60'
      // 10 cm off the 2.09 m lamp's bounds: typed by hand a little off, still on the model.
      hotspots[1]!.position = '0.8 1.4 0'
    })
    const report = await hotspotReport(dir)
    expect(report).toHaveLength(1)
    expect(report[0]).toMatchObject({
      file: SHOWCASE,
      path: `${viewerPath()}.primary.hotspots[0].position`,
    })
    expect(report[0]!.message).toBe(
      '(slice model_viewer, hotspot 1 "Weighted steel base") is 0 6 60, 59.4 m outside the model models/lamp.glb (its bounds: x -0.7 to 0.7, y -0.06 to 2.031, z -0.7 to 0.7, in metres): a hotspot sits on its model, in the model\'s own coordinates',
    )
  })

  it("refuses a finish's label for a name the model does not have, as the file spells it", async () => {
    const dir = sampleWithViewer((primary) => {
      const rows = primary.variant_labels as { name: string | null; label: string | null }[]
      expect(rows.map((row) => row.name)).toEqual(['Blue', 'Red', 'White'])
      rows[1]!.name = 'red'
      rows.push({ name: 'Green', label: null })
      // A row Slice Machine adds and the editor leaves empty is no label.
      rows.push({ name: null, label: null })
    })
    const at = `${viewerPath()}.primary.variant_labels`
    const has = 'its finishes are "Blue", "Red", "White"'
    expect(await hotspotReport(dir)).toEqual([
      {
        file: SHOWCASE,
        path: `${at}[1].name`,
        message: `(slice model_viewer, finish 2 "Signal red") is "red", which the model models/lamp.glb does not have: ${has}. Write the name as the file spells it, or the label is never shown`,
      },
      {
        file: SHOWCASE,
        path: `${at}[3].name`,
        message: `(slice model_viewer, finish 4) is "Green", which the model models/lamp.glb does not have: ${has}. Write the name as the file spells it, or the label is never shown`,
      },
    ])
  })

  it('ignores a row left empty, and fails content:check with the report on a wrong one', () => {
    const dir = sampleWith((hotspots) => {
      // As Prismic keeps an emptied rich text: one empty paragraph.
      hotspots.push({
        label: null,
        detail: [{ type: 'paragraph', text: '', spans: [] }],
        position: null,
        normal: null,
        view: null,
      })
      hotspots.push({ label: 'Cord', detail: [], position: 'under the base', normal: '0 -1 0' })
    })
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'services/content-api/check-cli.ts', '--content', dir],
      { encoding: 'utf8' },
    )
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('has 1 problem:')
    expect(run.stderr).toContain(
      `${SHOWCASE} ${viewerPath()}.primary.hotspots[4].position: (slice model_viewer, hotspot 5 "Cord") is "under the base": "under" is not a number (write x y z in metres, e.g. 0 1.2 0.3)`,
    )
  })
})
