// The "Viewers" section of bench/report.md, from bench/viewers.json (`npm run bench:viewers`):
// Facet's viewer beside `<model-viewer>` on each corpus model, scroll to live.
import { writeSection } from './report-section.mjs'

const HEADING = '## Viewers'

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`
const cell = (f) =>
  `${(f.timeToLiveMs / 1000).toFixed(2)} s, ${kb(f.bytesToLive)}, ${f.longestTaskMs} ms${f.worstTaskMs === undefined ? '' : ` (${f.worstTaskMs})`}, ${f.blockingMs} ms`

function table(report) {
  const sites = report.origins.map((o) => o.label)
  const head = [
    '| model |',
    ...sites.map((s) => ` Facet ${s}: time, bytes, longest task, blocking |`),
    ' `<model-viewer>`: time, bytes, longest task, blocking |',
    ...sites.map((s) => ` Facet ${s} ÷ anchor |`),
  ].join('')
  const rule = `|${'---|'.repeat(1 + sites.length * 2 + 1)}`
  const rows = report.rows.map((r) =>
    [
      `| ${r.model} |`,
      ...sites.map((s) => ` ${cell(r.facet[s])} |`),
      ` ${cell(r.anchor)} |`,
      ...sites.map((s) => ` ${r.ratio[s]} |`),
    ].join(''),
  )
  return [head, rule, ...rows].join('\n')
}

/** Replaces (or adds) the "Viewers" section of `reportFile` with `report`'s table. */
export function writeViewersSection(reportFile, report) {
  const before = report.rows[0]
    ? Object.entries(report.rows[0].facet)
        .map(([s, f]) => `${s} ${kb(f.bytesBeforeScroll)}`)
        .join(', ')
    : ''
  const idle = Object.entries(report.neverScrolls ?? {})
    .map(
      ([s, marks]) =>
        `${s} ${Object.entries(marks)
          .map(([ms, bytes]) => `${kb(bytes)} by ${Number(ms) / 1000} s`)
          .join(', ')}`,
    )
    .join('; ')
  writeSection(
    reportFile,
    HEADING,
    `${HEADING}

\`npm run bench:viewers\`, ${report.date.slice(0, 10)}: ${report.environment}; median of ${report.runs}. Time from the scroll to the model on screen (Facet's \`live\`, the anchor's \`load\`); bytes over the wire in that time; the longest main-thread task (in brackets, the longest of any run) and the blocking (time over 50 ms per task) in it. The anchor is ${report.anchor}, given the model as uploaded. Facet's showcase before the scroll: ${before} (the first model's visits). A visitor who never scrolls receives, after \`load\`: ${idle || 'not measured'}.

${table(report)}
`,
  )
}
