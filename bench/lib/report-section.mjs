// One section of bench/report.md, written by the benchmark that measures it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/**
 * Replaces the section that starts with `heading` (a `## ` line) in `reportFile` with `section`,
 * up to the next `## ` heading; adds it at the end when the report has none, and makes the file
 * when there is none.
 */
export function writeSection(reportFile, heading, section) {
  if (!existsSync(reportFile)) return writeFileSync(reportFile, `${section}\n`)
  const md = readFileSync(reportFile, 'utf8')
  const start = md.indexOf(`${heading}\n`)
  if (start < 0) return writeFileSync(reportFile, `${md.trimEnd()}\n\n${section}`)
  const next = md.indexOf('\n## ', start + heading.length)
  const end = next < 0 ? md.length : next + 1
  writeFileSync(
    reportFile,
    `${md.slice(0, start)}${section}${next < 0 ? '' : '\n'}${md.slice(end)}`,
  )
}
