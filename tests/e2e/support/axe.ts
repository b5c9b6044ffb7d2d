import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** WCAG 2.2 A and AA: what every route must pass. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** axe's violations on the page as it stands, one readable line each. */
export async function axeViolations(page: Page, tags = WCAG): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(tags).analyze()
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}
