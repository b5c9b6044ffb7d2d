// The map of `npm test`: every stage it runs, in order, each under one name. scripts/test.mjs
// reads this list, prints each stage under its name and sums them all in its last line; the
// README's "Tests" table is this list. A suite's configuration is `tests/suites/<name>.<runner>.ts`.
//
// - `check`: a command that passes or fails as a whole (one count).
// - `vitest`, `playwright`: a suite counted test by test from its JSON report.
// - `build`: the production build the stages marked `afterBuild` run on (`.next`); when it
//   fails, they do not run and the build counts as one failure.
//
// Stages run one after another in this order, but two kinds of work that spend their time
// waiting on a client's pacing (the write client queues its writes 1.5 s apart) run beside them
// from the start, where they cost the others almost no processor time:
// - `beside: true`: the stage runs from the start; its output is printed once it ends;
// - `prepare`: a command that starts at the start; its stage waits for it, then runs with
//   `prepare.env`.
// - `lane`: the stages of one lane run one after another, beside the rest of the map. The lane
//   starts where the map lists its first stage; its other stages keep their places in the summary.
//   The `own builds` lane holds three of the suites that build or serve a site of their own (on a
//   copy of the repository, or the development server): after `e2e` (which keeps both cores busy on
//   its own), `engines` and `nodes`, it runs beside the others, which wait on browsers, Redis and
//   Varnish as much as they compute. Not beside `engines` and `nodes`: a build beside them starved
//   Firefox's Draco and KTX2 decoders (WebGL in software) past their minute, and slowed the Redis
//   outage test's nodes past its timing; both failed there in two runs of three.
//   The `checks` lane holds Prettier and ESLint: each reads the sources on one core, so they run
//   beside the type check and the content check (one core each too), then beside the units.
//
// `npm run test:quick` runs only the stages marked `quick` (format, lint, types, content, units),
// the units without the files that need a browser (BROWSER_FILES in vitest-shared.ts): the loop to
// run while working, in under three minutes.

/**
 * @typedef {{ about: string, bin: string, args: string[], env: Record<string, string> }} Prepare
 * @typedef {{ name: string, about: string, afterBuild?: boolean, beside?: boolean,
 *   prepare?: Prepare, quick?: boolean, lane?: string }} Common
 */
/**
 * @typedef {(Common & { kind: 'check', bin: string, args: string[] })
 *   | (Common & { kind: 'vitest' | 'playwright', config: string })
 *   | (Common & { kind: 'build' })} Stage
 */

/** @type {Stage[]} */
export const stages = [
  {
    name: 'format',
    quick: true,
    kind: 'check',
    about: 'Prettier',
    bin: 'prettier',
    args: ['--check', '.'],
    lane: 'checks',
  },
  {
    name: 'lint',
    quick: true,
    kind: 'check',
    about: 'ESLint',
    bin: 'eslint',
    args: ['.', '--max-warnings=0'],
    lane: 'checks',
  },
  {
    name: 'types',
    quick: true,
    kind: 'check',
    about: 'TypeScript',
    bin: 'tsc',
    args: ['--noEmit', '-p', 'tsconfig.json'],
  },
  {
    name: 'content',
    quick: true,
    kind: 'check',
    about: 'every document in content/ against its model',
    bin: 'tsx',
    args: ['services/content-api/check-cli.ts'],
  },
  {
    name: 'sync',
    kind: 'vitest',
    about:
      "prismic:push and prismic:pull, and the write stand-ins, under the write client's pacing (tests/conformance/prismic-{sync,write-apis}.test.ts)",
    config: 'tests/suites/sync.vitest.ts',
    beside: true,
  },
  {
    name: 'units',
    quick: true,
    kind: 'vitest',
    about: "units and conformance (tests/unit/, tests/conformance/), but for the sync stage's",
    config: 'tests/suites/units.vitest.ts',
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
    name: 'rtl',
    kind: 'playwright',
    about:
      'a right-to-left language added as an editor would, built by npm run build into .next and started by npm start on a copy of the repository (tests/rtl/)',
    config: 'tests/suites/rtl.playwright.ts',
    lane: 'own builds',
  },
  {
    name: 'foreign',
    kind: 'playwright',
    about:
      'a content folder no test has seen, built by npm run build into .next-foreign and started by npm start on a copy of the repository (tests/foreign/)',
    config: 'tests/suites/foreign.playwright.ts',
    lane: 'own builds',
  },
  {
    name: 'cdn',
    kind: 'vitest',
    about: 'Varnish in front of the site (tests/cdn/)',
    config: 'tests/suites/cdn.vitest.ts',
    afterBuild: true,
  },
  {
    name: 'pushed',
    kind: 'playwright',
    about: 'a repository prismic:push filled, page by page against the main build (tests/pushed/)',
    config: 'tests/suites/pushed.playwright.ts',
    afterBuild: true,
    prepare: {
      about: 'prismic:push of content/ into an empty repository (tests/pushed/push.ts)',
      bin: 'tsx',
      args: ['tests/pushed/prepare.ts', '.data/pushed-repository'],
      env: { PUSHED_REPOSITORY_DIR: '.data/pushed-repository' },
    },
  },
  {
    name: 'slicemachine',
    kind: 'playwright',
    about: 'Slice Machine framing the development server (tests/slicemachine/)',
    config: 'tests/suites/slicemachine.playwright.ts',
    lane: 'own builds',
  },
]
