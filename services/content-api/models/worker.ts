// The child process of ./render.ts: reads one model and its params from the parent, makes the
// variant, answers, exits. A process of its own, so that seconds of meshopt and glTF-Transform
// work (synchronous WebAssembly, for the most part) never hold the server's event loop.
import { ModelRefused } from './limits'
import { optimizeModel } from './optimize'
import type { ModelParams } from './params'

type Job = { bytes: Uint8Array; params: ModelParams }

/** Answers, then lets the process end once the answer is out (a large GLB takes a moment). */
function answer(message: object) {
  process.send!(message, () => process.disconnect())
}

process.once('message', (job: Job) => {
  optimizeModel(job.bytes, job.params).then(
    ({ glb, stats, source }) => answer({ ok: true, glb, stats, source }),
    (error: Error) =>
      answer({
        ok: false,
        status: error instanceof ModelRefused ? error.status : 422,
        message:
          error instanceof ModelRefused ? error.message : `model does not read: ${error.message}`,
      }),
  )
})
