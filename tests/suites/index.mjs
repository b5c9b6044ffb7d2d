// The map of `npm test`: every stage it runs, in order, each under one name. scripts/test.mjs
// reads this list, prints each stage under its name and sums them all in its last line; the
// README's "Tests" table is this list. A suite's configuration is `tests/suites/<name>.<runner>.ts`.
//
// - `check`: a command that passes or fails as a whole (one count).
// - `vitest`, `playwright`: a suite counted test by test from its JSON report.
// - `build`: the production build the stages marked `afterBuild` run on (`.next`); when it
//   fails, they do not run and the build counts as one failure.

/** @typedef {{ name: string, about: string, afterBuild?: boolean }} Common */
/**
 * @typedef {(Common & { kind: 'check', bin: string, args: string[] })
 *   | (Common & { kind: 'vitest' | 'playwright', config: string })
 *   | (Common & { kind: 'build' })} Stage
 */

/** @type {Stage[]} */
export const stages = [
  { name: 'format', kind: 'check', about: 'Prettier', bin: 'prettier', args: ['--check', '.'] },
  { name: 'lint', kind: 'check', about: 'ESLint', bin: 'eslint', args: ['.', '--max-warnings=0'] },
  {
    name: 'types',
    kind: 'check',
    about: 'TypeScript',
    bin: 'tsc',
    args: ['--noEmit', '-p', 'tsconfig.json'],
  },
  {
    name: 'content',
    kind: 'check',
    about: 'every document in content/ against its model',
    bin: 'tsx',
    args: ['services/content-api/check-cli.ts'],
  },
  {
    name: 'units',
    kind: 'vitest',
    about: 'units and conformance (tests/unit/, tests/conformance/)',
    config: 'tests/suites/units.vitest.ts',
  },
  {
    name: 'build-once',
    kind: 'vitest',
    about: 'npm run build then npm start, into .next and .next-other, on a copy of the repository',
    config: 'tests/suites/build-once.vitest.ts',
  },
  { name: 'build', kind: 'build', about: 'the production build (.next) the next stages run on' },
  {
    name: 'bundles',
    kind: 'check',
    about: 'byte budgets of each page (scripts/check-bundles.mjs)',
    bin: 'node',
    args: ['scripts/check-bundles.mjs'],
    afterBuild: true,
  },
  {
    name: 'e2e',
    kind: 'playwright',
    about: 'end to end in Chromium (tests/e2e/)',
    config: 'tests/suites/e2e.playwright.ts',
    afterBuild: true,
  },
  {
    name: 'engines',
    kind: 'vitest',
    about: 'Firefox and WebKit (tests/engines/)',
    config: 'tests/suites/engines.vitest.ts',
    afterBuild: true,
  },
  {
    name: 'nodes',
    kind: 'vitest',
    about: 'several nodes sharing one Redis (tests/nodes/)',
    config: 'tests/suites/nodes.vitest.ts',
    afterBuild: true,
  },
  {
    name: 'cdn',
    kind: 'vitest',
    about: 'Varnish in front of the site (tests/cdn/)',
    config: 'tests/suites/cdn.vitest.ts',
    afterBuild: true,
  },
  {
    name: 'foreign',
    kind: 'playwright',
    about: 'a content folder no test has seen, built into .next-foreign (tests/foreign/)',
    config: 'tests/suites/foreign.playwright.ts',
  },
  {
    name: 'rtl',
    kind: 'playwright',
    about: 'a right-to-left language added as an editor would, built into .next-rtl (tests/rtl/)',
    config: 'tests/suites/rtl.playwright.ts',
  },
  {
    name: 'pushed',
    kind: 'playwright',
    about: 'a repository prismic:push filled, page by page against the main build (tests/pushed/)',
    config: 'tests/suites/pushed.playwright.ts',
    afterBuild: true,
  },
  {
    name: 'slicemachine',
    kind: 'playwright',
    about: 'Slice Machine framing the development server (tests/slicemachine/)',
    config: 'tests/suites/slicemachine.playwright.ts',
  },
]
