// `node --import tsx tests/pushed/prepare.ts DIR`: the pushed repository, filled into DIR ahead of
// the pushed stage (tests/pushed/push.ts says why).
import { pushInto } from './push'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node --import tsx tests/pushed/prepare.ts DIR')
  process.exit(2)
}
pushInto(dir).catch((error: unknown) => {
  console.error(`pushed repository: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
