// `npm run build`: the production build, with its compile hints, Brotli copies and the stamp
// that lets `npm start` serve it without building again (scripts/build-if-needed.mjs).
import { build, exitOnRefusal } from './build-if-needed.mjs'

process.env.NEXT_TELEMETRY_DISABLED ??= '1'
exitOnRefusal(() => build())
