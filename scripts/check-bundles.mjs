// Part of `npm test`: every prerendered page keeps its own JS within the budget above the
// framework floor (DESIGN.md), and no page loads the 3D chunk before it is idle.
import { measureBundles } from './lib/bundles.mjs'

const OWN_JS_BUDGET = 25 * 1024
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

const report = measureBundles()
const failures = []
console.log(
  `framework floor (not-found page): ${kb(report.floorGzip)} gzipped; 3D chunk(s): ${kb(report.threeGzip)} gzipped`,
)
console.log(
  `3D render worker's scripts (${report.worker.chunks.length}): ${kb(report.worker.wire)} on the wire (Brotli), ${kb(report.worker.gzip)} gzipped; the decoders' loaders, on demand: ${kb(report.worker.lazyTotal.wire)} on the wire, ${kb(report.worker.lazyTotal.gzip)} gzipped`,
)
for (const page of report.pages) {
  const over = page.ownGzip > OWN_JS_BUDGET
  console.log(
    `${over || page.loads3dUpFront ? '✗' : '✓'} ${page.route.padEnd(40)} own ${kb(page.ownGzip).padStart(9)}  total ${kb(page.totalGzip).padStart(9)}`,
  )
  if (over)
    failures.push(
      `${page.route}: ${kb(page.ownGzip)} of its own JS, over the ${kb(OWN_JS_BUDGET)} budget`,
    )
  if (page.loads3dUpFront) failures.push(`${page.route}: loads the 3D chunk in its initial scripts`)
}
if (report.pages.length === 0) failures.push('no prerendered pages found in .next/server/app')
if (failures.length > 0) {
  console.error(`\nBundle budget exceeded:\n${failures.map((f) => `  - ${f}`).join('\n')}`)
  process.exit(1)
}
console.log(`bundles: ${report.pages.length} pages within budget`)
