import type { Page } from '@playwright/test'

/** The forms' time trap (MIN_FILL_MS in src/forms/useMailDelivery.ts), and a little more. */
const PAST_TIME_TRAP_MS = 1_600

/**
 * Moves the page's clock past the forms' time trap, which refuses a submit within 1.5 s of the
 * form appearing: a person takes longer. The clock must have been installed before the page was
 * opened (`page.clock.install()`); it runs as usual before and after, so nothing else is held up,
 * and the test does not sleep.
 */
export async function passTimeTrap(page: Page): Promise<void> {
  await page.clock.fastForward(PAST_TIME_TRAP_MS)
}
