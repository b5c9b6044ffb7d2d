import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

/**
 * The site mirrors for right-to-left languages with one stylesheet: every rule that places
 * something along the line says start and end (`margin-inline-start`, `inset-inline-end`,
 * `text-align: start`…), never left and right, which would stay put when the direction flips.
 */
const PHYSICAL = [
  /(?:^|[\s;{])(?:margin|padding|border)-(?:left|right)(?:-\w+)?\s*:/,
  /(?:^|[\s;{])(?:left|right)\s*:/,
  /(?:^|[\s;{])(?:text-align|float|clear)\s*:\s*(?:left|right)\b/,
]

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return cssFiles(file)
    return entry.name.endsWith('.css') ? [file] : []
  })
}

test('no stylesheet of the site places anything left or right', () => {
  const files = cssFiles('src')
  expect(files.length).toBeGreaterThan(2)
  const physical = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .flatMap((line, i) =>
        PHYSICAL.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
      ),
  )
  expect(physical).toEqual([])
})
