// Where Playwright looks by default: the end-to-end suite. Every suite's configuration is in
// tests/suites/, listed in tests/suites/index.mjs (README, "Tests").
export { default, chromiumArgs, chromiumPath } from './tests/suites/e2e.playwright'
