import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { SharedSliceContentSchema } from '@prismicio/types-internal/io-ts'
import type { ContentProblem } from './store'
import type { ModelField } from './validate'

/**
 * Checks each slice's `mocks.json` (`src/slices/<Name>/` under `modelsDir`) as Slice Machine
 * reads it: an array of `SharedSliceContent` (Slice Machine's `readSliceMocks` decodes it with
 * `@prismicio/types-internal`'s codec and, when that fails, shows empty fields and replaces the
 * file with random mocks on the next save). Then against the slice's model: one mock per
 * variation, and every field of a mock is a field of that variation, of the content kind its
 * type holds. `npm run slices:mocks` writes mocks that pass.
 */

type SliceVariation = {
  id: string
  primary?: Record<string, ModelField>
  items?: Record<string, ModelField>
}
type SliceModel = { id: string; variations: SliceVariation[] }

/** The `__TYPE__` of the content each model field type holds (Slice Machine's storage format). */
const CONTENT_KIND: Record<string, string> = {
  Boolean: 'BooleanContent',
  StructuredText: 'StructuredTextContent',
  Image: 'ImageContent',
  Link: 'LinkContent',
  Group: 'GroupContentType',
  Embed: 'EmbedContent',
  GeoPoint: 'GeoPointContent',
  Separator: 'SeparatorContent',
  IntegrationFields: 'IntegrationFieldsContent',
  Table: 'TableContent',
}

type Content = { __TYPE__?: string; type?: string; value?: unknown }
type GroupItem = { key?: string; value?: [string, Content][] }

function checkField(
  field: ModelField | undefined,
  content: Content,
  where: string,
  problems: (path: string, message: string) => void,
): void {
  if (!field) {
    problems(where, 'is not a field of the model')
    return
  }
  const type = field.type ?? ''
  // An empty field is stored as EmptyContent of its type.
  if (content.__TYPE__ === 'EmptyContent') {
    if (content.type !== type)
      problems(where, `is empty content of type ${content.type}, not ${type}`)
    return
  }
  const kind = CONTENT_KIND[type] ?? 'FieldContent'
  if (content.__TYPE__ !== kind) {
    problems(where, `holds ${content.__TYPE__}, but a ${type} field holds ${kind}`)
    return
  }
  if (kind === 'FieldContent' && content.type !== type)
    problems(where, `holds a ${content.type} value, but the field is a ${type}`)
  if (type === 'Select' && field.config?.options && typeof content.value === 'string') {
    if (!field.config.options.includes(content.value))
      problems(
        where,
        `"${content.value}" is not one of the options ${field.config.options.join(', ')}`,
      )
  }
  // Slice Machine's mock editor builds each image's crop URL with `new URL(origin.url)`.
  if (type === 'Image') {
    const url = (content as { origin?: { url?: unknown } }).origin?.url
    if (typeof url !== 'string' || !URL.canParse(url))
      problems(
        where,
        `Slice Machine's editor cannot show it: origin.url ${JSON.stringify(url)} is not an absolute URL`,
      )
  }
  if (type === 'Group')
    checkItems(field.config?.fields ?? {}, content.value as GroupItem[], where, problems)
}

function checkItems(
  fields: Record<string, ModelField>,
  items: GroupItem[],
  where: string,
  problems: (path: string, message: string) => void,
): void {
  items.forEach((item, index) => {
    for (const [name, content] of item.value ?? [])
      checkField(fields[name], content, `${where}[${index}].${name}`, problems)
  })
}

/** The problems of one slice's mocks against its model (`file` names it in the report). */
export function checkSliceMocksOf(
  model: SliceModel,
  mocks: unknown,
  file: string,
): ContentProblem[] {
  const out: ContentProblem[] = []
  const problem = (where: string, message: string) => out.push({ file, path: where, message })
  if (!Array.isArray(mocks)) {
    problem('$', 'is not an array of SharedSliceContent (one per variation)')
    return out
  }
  const seen = new Set<string>()
  mocks.forEach(
    (
      mock: { variation?: string; primary?: Record<string, Content>; items?: GroupItem[] },
      index,
    ) => {
      const at = `[${index}]`
      const decoded = SharedSliceContentSchema.decode(mock)
      if (decoded._tag === 'Left') {
        const first = decoded.left[0]
        const key = first?.context
          .map((c) => c.key)
          .filter(Boolean)
          .join('.')
        problem(
          `${at}${key ? `.${key}` : ''}`,
          `Slice Machine cannot read this mock: it is not SharedSliceContent (${decoded.left.length} decoding error${decoded.left.length === 1 ? '' : 's'}; run npm run slices:mocks)`,
        )
        return
      }
      const variation = model.variations.find((v) => v.id === mock.variation)
      if (!variation) {
        problem(`${at}.variation`, `"${mock.variation}" is not a variation of ${model.id}`)
        return
      }
      if (seen.has(variation.id)) problem(`${at}.variation`, `a second mock of "${variation.id}"`)
      seen.add(variation.id)
      for (const [name, content] of Object.entries(mock.primary ?? {}))
        checkField(variation.primary?.[name], content, `${at}.primary.${name}`, problem)
      checkItems(variation.items ?? {}, mock.items ?? [], `${at}.items`, problem)
    },
  )
  for (const variation of model.variations)
    if (!seen.has(variation.id)) problem('$', `no mock of the variation "${variation.id}"`)
  return out
}

/**
 * The problems of every slice's mocks under `modelsDir/src/slices`. In a Slice Machine project
 * (`slicemachine.config.json` beside it) a slice without mocks is one; a content folder's own
 * models need none.
 */
export function checkSliceMocks(modelsDir: string): ContentProblem[] {
  const dir = path.join(modelsDir, 'src', 'slices')
  if (!existsSync(dir)) return []
  const problems: ContentProblem[] = []
  for (const name of readdirSync(dir).sort()) {
    const modelFile = path.join(dir, name, 'model.json')
    if (!existsSync(modelFile)) continue
    const file = path.join('src', 'slices', name, 'mocks.json')
    const mocksFile = path.join(dir, name, 'mocks.json')
    if (!existsSync(mocksFile)) {
      if (!existsSync(path.join(modelsDir, 'slicemachine.config.json'))) continue
      problems.push({ file, path: '$', message: 'is missing (run npm run slices:mocks)' })
      continue
    }
    let mocks: unknown
    try {
      mocks = JSON.parse(readFileSync(mocksFile, 'utf8'))
    } catch (error) {
      problems.push({ file, path: '$', message: `is not JSON: ${(error as Error).message}` })
      continue
    }
    const model = JSON.parse(readFileSync(modelFile, 'utf8')) as SliceModel
    problems.push(...checkSliceMocksOf(model, mocks, file))
  }
  return problems
}
