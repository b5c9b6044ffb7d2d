import type { SiteProxy } from './proxy'

/**
 * What the engine tests need from a browser, the same for each engine: Firefox through
 * puppeteer-core over WebDriver BiDi (firefox.ts), WebKit through selenium-webdriver over classic
 * WebDriver (webkit.ts). Each method does what a visitor or the page does; nothing here reaches
 * into the site's code.
 */
export interface Engine {
  /** A name for messages: `firefox (headless)`, `webkit`… */
  readonly name: string
  /** The origin this engine visits the site at (a loopback proxy in front of it, proxy.ts). */
  readonly origin: string
  /** Bytes over the wire by path since the last `goto`, as the site sent them (proxy.ts). */
  readonly bytes: Map<string, number>
  /** The status of each answer by URL (path and query) since the last `goto`. */
  readonly statuses: Map<string, number>
  /** Files served in place of the site's, by path (proxy.ts). */
  readonly replacements: SiteProxy['replacements']
  /** Requests the browser made that the site has not answered in full yet (proxy.ts). */
  readonly inFlight: SiteProxy['inFlight']
  /**
   * Opens `path` on the site and waits for its `load` event. Starts the recorder and the byte
   * count afresh.
   */
  goto(path: string): Promise<void>
  /**
   * Runs `fn` in the page (its source is sent; it sees only its arguments) and returns its
   * result, awaited when it is a promise.
   */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>
  /**
   * Runs `script` (a function's body, as WebDriver's scripts are) in the page: a test's own tool
   * (the virtual screen reader), put there by the driver, which the page's policy does not refuse.
   */
  run(script: string): Promise<void>
  /** Presses one key on the keyboard, as the visitor does (`Tab`, `Enter`…). */
  press(key: 'Tab' | 'Enter' | 'Escape' | 'ArrowRight'): Promise<void>
  /** Puts focus on the element `selector` names, then types `text` with the keyboard. */
  type(selector: string, text: string): Promise<void>
  /** Activates the element `selector` names (a click, or Enter on it where clicks fail). */
  click(selector: string): Promise<void>
  /** What the visitor sees in the box of the element `selector` names, as a PNG. */
  screenshot(selector: string): Promise<Buffer>
  /**
   * The recorder: every uncaught error and Content Security Policy violation the page reported
   * since the last `goto`, one line each. Empty means none.
   */
  problems(): Promise<string[]>
  close(): Promise<void>
}

/** Polls `fn` in the page until it returns a truthy value, which it returns. */
export async function waitFor<A extends unknown[], R>(
  engine: Engine,
  what: string,
  fn: (...args: A) => R | Promise<R>,
  args: A,
  timeout = 20_000,
): Promise<NonNullable<R>> {
  const until = Date.now() + timeout
  let last: R | undefined
  for (;;) {
    last = await engine.evaluate(fn, ...args)
    if (last) return last as NonNullable<R>
    if (Date.now() > until)
      throw new Error(
        `${engine.name}: ${what} within ${timeout} ms (last: ${JSON.stringify(last)})`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Polls a Node-side check until it returns a truthy value. */
export async function until<R>(what: string, check: () => R | Promise<R>, timeout = 20_000) {
  const end = Date.now() + timeout
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > end) throw new Error(`${what} within ${timeout} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The in-page half of the recorder: listeners for uncaught errors, unhandled rejections and
 * `securitypolicyviolation`, keeping one line per event in `window.__facetProblems`. Firefox runs
 * it before any of the page's scripts; WebKit as soon as its WebDriver lets a script in (see
 * webkit.ts for what covers the moments before).
 */
export function installRecorder() {
  const w = window as unknown as { __facetProblems?: string[] }
  if (w.__facetProblems) return
  const problems: string[] = (w.__facetProblems = [])
  addEventListener('error', (event) => {
    problems.push(`uncaught error: ${event.message} (${event.filename}:${event.lineno})`)
  })
  addEventListener('unhandledrejection', (event) => {
    problems.push(`unhandled rejection: ${String(event.reason)}`)
  })
  document.addEventListener('securitypolicyviolation', (event) => {
    problems.push(
      `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} ` +
        `(${event.sourceFile}:${event.lineNumber}) under "${event.originalPolicy}"`,
    )
  })
}

/** What the in-page recorder holds. */
export function recorded(): string[] {
  return (window as unknown as { __facetProblems?: string[] }).__facetProblems ?? []
}
