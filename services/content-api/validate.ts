import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { ContentProblem, ContentStore } from './store'

/**
 * Checks documents against their Slice Machine models: `customtypes/<id>/index.json` and
 * `src/slices/<Name>/model.json` under `modelsDir`. Without models it checks only what the
 * store itself can see (uids repeated within a type and language).
 */
export function validateContent(store: ContentStore, modelsDir?: string): ContentProblem[] {
  const problems: ContentProblem[] = []
  const seen = new Map<string, string>()
  for (const entry of store.documents) {
    const { doc } = entry
    if (doc.uid !== null) {
      const key = `${doc.type}/${doc.lang}/${doc.uid}`
      const other = seen.get(key)
      if (other)
        problems.push({
          file: entry.file,
          path: '$.uid',
          message: `"${doc.uid}" is already the uid of ${other} (${doc.type}, ${doc.lang})`,
        })
      else seen.set(key, entry.file)
    }
  }
  if (!modelsDir) return problems

  const customTypesDir = path.join(modelsDir, 'customtypes')
  const known = existsSync(customTypesDir)
    ? new Set(
        readdirSync(customTypesDir).filter((id) =>
          existsSync(path.join(customTypesDir, id, 'index.json')),
        ),
      )
    : new Set<string>()
  for (const entry of store.documents) {
    if (!known.has(entry.doc.type)) {
      problems.push({
        file: entry.file,
        path: '$',
        message: `has type "${entry.doc.type}", which no model in customtypes/ defines`,
      })
      continue
    }
    const model = JSON.parse(
      readFileSync(path.join(customTypesDir, entry.doc.type, 'index.json'), 'utf8'),
    ) as {
      repeatable?: boolean
      json?: Record<string, Record<string, { type?: string }>>
    }
    const hasUidField = Object.values(model.json ?? {}).some((tab) =>
      Object.values(tab).some((f) => f.type === 'UID'),
    )
    if (hasUidField && !entry.doc.uid)
      problems.push({
        file: entry.file,
        path: '$.uid',
        message: 'is missing; this type has a UID field',
      })
  }
  return problems
}

/** One readable report: a line per problem, naming the file and the JSON path. */
export function formatProblems(problems: ContentProblem[], dir: string): string {
  return [
    `The content folder ${dir} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:`,
    ...problems.map((p) => `  ${p.file} ${p.path}: ${p.message}`),
  ].join('\n')
}
