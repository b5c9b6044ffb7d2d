import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkLooks } from '@services/content-api/look-check'
import { checkFolder } from '@services/content-api/validate'

// `content:check` and art direction (#61): a model slice's light, shadow and camera fields, and
// the settings' site-wide look, each problem naming the document, the slice and the field; an
// environment file that cannot be read is refused with its reason.

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const SHOWCASE = path.join('documents', 'page', 'showcase', 'en-us.json')

/** A copy of the sample content, with the showcase viewer's fields changed by `change`. */
function sampleWithViewer(
  change: (primary: Record<string, unknown>) => void,
  extra?: (dir: string) => void,
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-look-'))
  dirs.push(dir)
  cpSync('content', dir, { recursive: true })
  const file = path.join(dir, SHOWCASE)
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  const viewer = doc.data.slices.find(
    (s: { slice_type: string }) => s.slice_type === 'model_viewer',
  )
  change(viewer.primary)
  writeFileSync(file, JSON.stringify(doc))
  extra?.(dir)
  return dir
}

/** Every problem content:check reports of the folder: the models' checks, then the looks'. */
async function report(dir: string) {
  const { store, releases, problems } = checkFolder(dir, '.')
  return [...problems, ...(await checkLooks([store, ...releases], path.join(dir, 'media')))].map(
    (problem) => `${problem.file} ${problem.path}: ${problem.message}`,
  )
}

const at = (() => {
  const doc = JSON.parse(readFileSync(path.join('content', SHOWCASE), 'utf8'))
  const i = doc.data.slices.findIndex(
    (s: { slice_type: string }) => s.slice_type === 'model_viewer',
  )
  return (field: string) =>
    `documents/page/showcase/en-us.json $.data.slices[${i}].primary.${field}`
})()

describe('content:check and the look', () => {
  it('passes the sample content, whose showcase viewer sets every field', async () => {
    expect(await report('content')).toEqual([])
  })

  it('refuses a number out of its range and a value not among a Select’s options', async () => {
    const dir = sampleWithViewer((primary) => {
      primary.exposure = 9
      primary.shadow_softness = -0.5
      primary.tone_mapping = 'filmic'
    })
    expect(await report(dir)).toEqual([
      expect.stringMatching(
        new RegExp(`^${escape(at('exposure'))}: is 9, outside its range: 0.1 to 4$`),
      ),
      expect.stringMatching(
        new RegExp(`^${escape(at('tone_mapping'))}: is "filmic", which is not one of its options`),
      ),
      expect.stringMatching(
        new RegExp(`^${escape(at('shadow_softness'))}: is -0.5, outside its range: 0 to 1$`),
      ),
    ])
  })

  it('names an orbit that does not parse and a limit over its maximum, with the slice', async () => {
    const dir = sampleWithViewer((primary) => {
      primary.camera_orbit = '30deg sideways'
      primary.min_camera_orbit = 'auto 120deg auto'
    })
    expect(await report(dir)).toEqual([
      `${at('camera_orbit')}: (slice model_viewer) is "30deg sideways": "sideways" is not an angle; write the azimuth and polar angle in degrees, then the distance in metres if it changes (e.g. 30deg 75deg 2.5m)`,
      `${at('min_camera_orbit')}: (slice model_viewer) has a polar over max_camera_orbit's: the minimum must not pass the maximum`,
    ])
  })

  it('refuses an environment file that cannot be read, or is not equirectangular, naming the file', async () => {
    const broken = sampleWithViewer(
      (primary) => {
        primary.environment_image = { link_type: 'Media', media: 'environments/broken.hdr' }
      },
      (dir) =>
        writeFileSync(
          path.join(dir, 'media', 'environments', 'broken.hdr'),
          '#?RADIANCE\n\n+Y 2 +X 4\n',
        ),
    )
    expect(await report(broken)).toEqual([
      `${at('environment_image')}: (slice model_viewer) (environments/broken.hdr) cannot be read: its resolution line is not "-Y height +X width"`,
    ])
    const square = sampleWithViewer((primary) => {
      primary.environment_image = { link_type: 'Media', media: 'photos/portrait-ines.jpg' }
    })
    expect(await report(square)).toEqual([
      expect.stringMatching(
        /environment_image: \(slice model_viewer\) \(photos\/portrait-ines\.jpg\) is \d+ × \d+: an environment is equirectangular, twice as wide as high$/,
      ),
    ])
  })

  it('refuses a 3D scene with no name for screen readers: no description and no poster alt text', async () => {
    const dir = sampleWithViewer((primary) => {
      primary.description = ' '
      ;(primary.poster as Record<string, unknown>).alt = ''
    })
    expect(await report(dir)).toEqual([
      `${at('description')}: (slice model_viewer) is empty, and so is the poster's alt text: the 3D scene would have no name for screen readers (WCAG 1.1.1). Describe what it shows`,
    ])
    // The poster's alt text names it as well.
    const named = sampleWithViewer((primary) => {
      primary.description = ''
      ;(primary.poster as Record<string, unknown>).alt = 'A desk lamp'
    })
    expect(await report(named)).toEqual([])
  })

  it('checks the settings’ site-wide look too', async () => {
    const dir = sampleWithViewer(
      () => {},
      (dir) => {
        const file = path.join(dir, 'documents', 'settings', 'settings', 'fr-fr.json')
        const doc = JSON.parse(readFileSync(file, 'utf8'))
        doc.data.environment_image = { link_type: 'Media', media: 'models/lamp.glb' }
        writeFileSync(file, JSON.stringify(doc))
      },
    )
    expect(await report(dir)).toEqual([
      expect.stringMatching(
        /^documents\/settings\/settings\/fr-fr\.json \$\.data\.environment_image: \(settings, 3D look\) is "lamp\.glb": an environment is a Radiance HDR/,
      ),
    ])
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
