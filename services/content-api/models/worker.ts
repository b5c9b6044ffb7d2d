// The child process of ./render.ts: reads one model and its params from the parent, makes the
// variant, answers, exits. A process of its own, so that seconds of meshopt and glTF-Transform
// work (synchronous WebAssembly, for the most part) never hold the server's event loop.
import { ModelRefused } from './limits'
import { optimizeModel } from './optimize'
import type { ModelParams } from './params'

type Job = { bytes: Uint8Array; params: ModelParams }

process.once('message', (job: Job) => {
  optimizeModel(job.bytes, job.params)
    .then(({ glb, stats, source }) => process.send!({ ok: true, glb, stats, source }))
    .catch((error: Error) =>
      process.send!({
        ok: false,
        status: error instanceof ModelRefused ? error.status : 422,
        message:
          error instanceof ModelRefused ? error.message : `model does not read: ${error.message}`,
      }),
    )
    .finally(() => process.disconnect())
})
