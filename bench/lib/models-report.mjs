// The "Models" section of bench/report.md, from bench/models.json (`npm run bench:models`).
// `npm run bench` puts it in the report it writes; `npm run bench:models` replaces the section in
// the report that is there, so the tables are current without running every other benchmark.
import { writeSection } from './report-section.mjs'

const HEADING = '## Models'

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`
const textures = (v) =>
  v.textures.length ? v.textures.map((t) => `${t.width}×${t.height}`).join(', ') : 'none'
const variant = (v) =>
  v ? `${mb(v.bytes)}, ${v.triangles.toLocaleString('en')} △, ${textures(v)}` : '–'

function table(report) {
  const head =
    '| model | site | original | low tier | low tier texture memory | high tier | live, warm (median) | longest task | states |\n|---|---|---|---|---|---|---|---|---|'
  const rows = report.rows.map(
    (r) =>
      `| ${r.model} | ${r.site} | ${variant(r.variants.original)} | ${variant(r.variants.low)} | ${mb(r.variants.low.gpuTextureBytes)} | ${variant(r.variants.high)} | ${r.live.timeToLiveMs} ms | ${r.live.longestTaskMs} ms | ${r.live.states.join('/')} (${r.live.tier ?? '?'} tier) |`,
  )
  return [head, ...rows].join('\n')
}

function coldTable(report) {
  const sites = Object.entries(report.cold ?? {})
  if (!sites.length) return 'Cold variant: not measured in this run.'
  const head =
    '| site | cold low variant of the scan | refused (503) first | project page visits meanwhile | slowest image | slowest page |\n|---|---|---|---|---|---|'
  const rows = sites.map(
    ([site, c]) =>
      `| ${site} | ${(c.coldMs / 1000).toFixed(1)} s (${mb(c.coldBytes)}) | ${c.refused} | ${c.visits} (${c.images} images) | ${c.slowestImageMs} ms | ${c.slowestPageMs} ms |`,
  )
  return [head, ...rows].join('\n')
}

function checksList(report) {
  return Object.entries(report.checks ?? {})
    .map(
      ([site, list]) =>
        `**${site}**: ${list.map((c) => `${c.pass ? 'PASS' : 'FAIL'} ${c.budget} (${c.value})`).join('; ')}.`,
    )
    .join('\n\n')
}

/** The section, in Markdown. */
export function modelsSection(report) {
  if (!report)
    return `${HEADING}\n\nnot measured (\`npm run bench:models\` writes bench/models.json)\n`
  const origins = report.origins.map((o) => `${o.label} = ${o.url}`).join(', ')
  return `${HEADING}

Made by \`npm run bench:models\` on ${report.date} (${report.environment}; ${origins}). Each model of the test corpus (tests/fixtures/model-corpus.ts) put in the site's media, fetched as uploaded and with \`?tier=low\` and \`?tier=high\`, each file read for its bytes, triangles (△) and textures; texture memory: RGBA8 with mipmaps (KTX2: a byte a pixel). "Live, warm": the model in the showcase's viewer, its variant made beforehand, from the visitor's scroll (once the page has painted, hydrated and been quiet for a second) to the viewer live, median of ${report.runs}, with the longest main-thread task in that time (worker path). Cold: a copy of the 4K scan with other bytes, its low tier's variant asked for while a phone visits a project page and its images again and again. Budgets (DESIGN.md, the 4K scan): low tier ≤ 4 MB, ≤ 250,000 triangles, textures ≤ 1024 px, ≤ 64 MB of texture memory, live ≤ 3 s warm with no task over 50 ms; high tier ≤ 12 MB, textures ≤ 2048 px; a cold variant ≤ 20 s while the page's images keep within 1 s.

${table(report)}

${coldTable(report)}

${checksList(report)}
`
}

/** Replaces the section in an existing report (or adds it at the end). */
export function writeModelsSection(reportFile, report) {
  writeSection(reportFile, HEADING, modelsSection(report))
}
