// `npm run build`'s second step, after `next build`: the compile hint and Brotli copies of the
// build's static assets (scripts/lib/static-assets.mjs).
import { describeFinishedBuild, finishBuild } from './lib/static-assets.mjs'

console.log(describeFinishedBuild(finishBuild()))
