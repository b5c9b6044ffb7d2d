// Where Vitest looks by default: units and conformance. Every suite's configuration is in
// tests/suites/, listed in tests/suites/index.mjs (README, "Tests").
export { default } from './tests/suites/units.vitest'
