import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** WCAG 2.2 A and AA: what every route must pass. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * axe's violations on the page as it stands, one readable line each: against the rules of `tags`
 * (`null`: every rule axe enables by default), within the elements `include` names (the whole
 * page without it).
 *
 * axe runs in the page itself (`axe.run`, AxeBuilder's legacy mode): the same rules and results
 * for a page whose frames are all of its origin, as the site's are. The default mode runs axe in
 * each frame, then opens a blank page to merge the frames' results there: a new renderer and a
 * second copy of axe for every check, which made each check 2–3 s rather than under 1 s here.
 */
export async function axeViolations(
  page: Page,
  { tags = WCAG, include = [] }: { tags?: string[] | null; include?: string[] } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode()
  if (tags) builder = builder.withTags(tags)
  for (const selector of include) builder = builder.include(selector)
  const results = await builder.analyze()
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}
