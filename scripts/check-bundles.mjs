// Part of `npm test`: every prerendered page keeps its own JS within the budget above the
// framework floor (DESIGN.md), no page loads the 3D chunk before it is idle, and the render
// worker's first scripts (what every page with 3D loads) stay within theirs.
import { measureBundles } from './lib/bundles.mjs'

const OWN_JS_BUDGET = 25 * 1024
/** The render worker's first scripts, gzipped: three.js, R3F and the renderer, no scene (#62). */
const WORKER_BUDGET = 200 * 1024
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

const report = measureBundles()
const failures = []
console.log(
  `framework floor (not-found page): ${kb(report.floorGzip)} gzipped; 3D chunk(s): ${kb(report.threeGzip)} gzipped`,
)
const { worker } = report
const both = (size) => `${kb(size.wire)} on the wire (Brotli), ${kb(size.gzip)} gzipped`
console.log(
  `3D render worker's first scripts (${worker.chunks.length}): ${both(worker)}; then, for a page's scenes, the model scenes ${both(worker.scenes.models)}, the generated scenes ${both(worker.scenes.generated)}; the decoders' loaders, for a model that needs them: ${both(worker.lazyTotal)}`,
)
if (worker.gzip > WORKER_BUDGET)
  failures.push(
    `the render worker's first scripts: ${kb(worker.gzip)} gzipped, over the ${kb(WORKER_BUDGET)} budget`,
  )
if (!worker.chunks.length || !worker.scenes.models.gzip || !worker.scenes.generated.gzip)
  failures.push(`the render worker's scripts or its scenes' chunks were not found in the build`)
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
