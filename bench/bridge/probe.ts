// Loaded first by every page of `npm run bench:bridge`. It wraps the page's Worker constructor so
// the benchmark hears each worker's `bench-frame` report (first frame drawn, lit pixels) and any
// error, without changing the code under test: @react-three/offscreen's Canvas and CanvasHost
// both set their worker's `onmessage` themselves, and a listener added here leaves that alone.

/** What a worker reports once it has drawn a frame and read its pixels back. */
export type BenchFrame = { type: 'bench-frame'; litPixels: number; pixels: number }

type Probe = {
  /** `performance.now()` on the page when the first frame's report arrived. */
  firstFrameAt: number | null
  frame: BenchFrame | null
  errors: string[]
}

const probe: Probe = { firstFrameAt: null, frame: null, errors: [] }
;(window as unknown as { __bridge: Probe }).__bridge = probe

const PageWorker = window.Worker
window.Worker = class extends PageWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options)
    this.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: string; message?: string; reason?: string }
      if (data?.type === 'bench-frame' && probe.firstFrameAt === null) {
        probe.firstFrameAt = performance.now()
        probe.frame = data as BenchFrame
      }
      // @react-three/offscreen's worker says `error` with a payload; ours `error` or `unsupported`.
      if (data?.type === 'error' || data?.type === 'unsupported')
        probe.errors.push(JSON.stringify(data))
    })
    this.addEventListener('error', (event) => probe.errors.push(`worker: ${event.message}`))
  }
}
