import { defineConfig } from 'vitest/config'
import { base, SYNC_FILES } from './vitest-shared'

/**
 * `prismic:push` and `prismic:pull` against the writable stand-ins, and the stand-ins themselves
 * (tests/conformance/prismic-sync.test.ts, prismic-write-apis.test.ts). The write client queues
 * every write 1.5 s apart, so these take minutes of waiting and little processor time: `npm test`
 * runs them beside the other stages from its start (`beside` in ./index.mjs), both files at once.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: SYNC_FILES,
    maxWorkers: 2,
  },
})
