// `content:check`'s stories: each step of each story slice (src/slices/ScrollStory), in the
// published documents and in every release, must have a view that parses and stays within the
// slice's limits, a target of three numbers, and a clip and a finish its model has (for a model
// of the content folder that reads). The rules are the site's own (rules/story.ts).
// Each problem names the document's file, the slice and the step's field.
import { storyLimits, storyStepProblems, type StoryStepFields } from '../../rules/story'
import { distinct, mediaFile, slicesOf, type Json } from './hotspots-check'
import type { ContentProblem, ContentStore } from './store'

/**
 * The story problems of every document in `stores` (the published documents, then each release),
 * each once. `models`: each model's variants' and clips' names, by its path under `media/`.
 */
export function checkStories(
  stores: ContentStore[],
  models: { variants: Map<string, string[]>; clips: Map<string, string[]> },
): ContentProblem[] {
  const problems: ContentProblem[] = []
  for (const store of stores)
    for (const entry of store.documents)
      for (const [slice, at] of slicesOf(entry.doc.data as Record<string, Json>)) {
        if (slice.slice_type !== 'scroll_story') continue
        const primary = (slice.primary ?? {}) as Record<string, Json>
        const steps = primary.steps
        if (!Array.isArray(steps)) continue
        const model = mediaFile(primary.model)
        const read =
          model && models.clips.has(model)
            ? { clips: models.clips.get(model)!, variants: models.variants.get(model) ?? [] }
            : null
        const limits = storyLimits(primary as Parameters<typeof storyLimits>[0])
        steps.forEach((step, i) => {
          if (!step || typeof step !== 'object' || Array.isArray(step)) return
          for (const { field, message } of storyStepProblems(
            step as StoryStepFields,
            limits,
            read,
          )) {
            problems.push({
              file: entry.file,
              path: `${at}.primary.steps[${i}].${field}`,
              message: `(slice scroll_story, step ${i + 1}) ${message}`,
            })
          }
        })
      }
  return distinct(problems)
}
