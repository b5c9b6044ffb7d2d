// Where the renderer can draw, asked without costing the page's main thread a WebGL context.
//
// Creating a context is a synchronous round trip to the GPU process: 19–42 ms at 4× CPU, and most
// of the 111 ms task the 3D's arrival cost the main thread after a visitor's first scroll, traced
// in a window (docs/3d.md, "Input as the 3D arrives"). So the page asks a tiny worker
// (`probeWorker`, a program of one line) whether a worker's OffscreenCanvas gives WebGL, and
// makes a context on its own thread only where no worker can draw (WebKit), to choose between
// the main-thread renderer and none.

/** Where the renderer runs: a worker, the main thread, or nowhere (no WebGL at all). */
export type RenderPath = 'worker' | 'main' | 'off'

/** True when `canvas` gives a WebGL context; the probe's context is lost at once. */
export function givesWebGL(canvas: HTMLCanvasElement | OffscreenCanvas): boolean {
  try {
    const context = (canvas.getContext('webgl2') ??
      canvas.getContext('webgl')) as WebGLRenderingContext | null
    if (!context) return false
    context.getExtension('WEBGL_lose_context')?.loseContext()
    return true
  } catch {
    return false
  }
}

/**
 * The probe worker's whole program: it posts `true` when an OffscreenCanvas gives a WebGL context
 * in its scope (as `givesWebGL` asks a canvas, the context lost at once), else `false`. WebKit has
 * OffscreenCanvas and `transferControlToOffscreen` but no WebGL on them. A string run from a
 * `blob:` URL (the policy's `worker-src` allows it), not a bundled worker: a bundled one is a
 * bootstrap and its scripts, two round trips before the renderer's own worker may start (0.3 s on
 * a phone's network, traced), for a question that needs no code of ours.
 */
export const PROBE_SOURCE = `let answer = false
try {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(1, 1)
    const context = canvas.getContext('webgl2') || canvas.getContext('webgl')
    if (context) {
      const lose = context.getExtension('WEBGL_lose_context')
      if (lose) lose.loseContext()
      answer = true
    }
  }
} catch (error) {}
postMessage(answer)`

/** A worker that runs `PROBE_SOURCE`: no request leaves the page. */
export function probeWorker(): Worker {
  const url = URL.createObjectURL(new Blob([PROBE_SOURCE], { type: 'text/javascript' }))
  const worker = new Worker(url)
  const forget = () => URL.revokeObjectURL(url)
  worker.addEventListener('message', forget, { once: true })
  worker.addEventListener('error', forget, { once: true })
  return worker
}

/**
 * True when a canvas on the main thread gives a WebGL context. Asked only where no worker can
 * draw: headless Firefox without a GPU has none, and there the main-thread renderer (about
 * 225 KB) would be fetched only to find that out.
 */
export function mainWebGL(): boolean {
  const probe = document.createElement('canvas')
  probe.width = probe.height = 1
  return givesWebGL(probe)
}

/** How long the probe worker may take to answer before the page takes it as "no". */
export const PROBE_TIMEOUT_MS = 10_000

/**
 * Asks a worker made by `create` whether it can draw WebGL: true on its answer `true`; false on
 * any other answer, an error (a script it cannot load), or no answer within PROBE_TIMEOUT_MS.
 * The worker is terminated either way.
 */
export function askWorker(create: () => Worker): Promise<boolean> {
  return new Promise((resolve) => {
    let worker: Worker
    try {
      worker = create()
    } catch {
      return resolve(false)
    }
    const done = (answer: boolean) => {
      clearTimeout(timer)
      worker.terminate()
      resolve(answer)
    }
    const timer = setTimeout(() => done(false), PROBE_TIMEOUT_MS)
    worker.onmessage = (event: MessageEvent) => done(event.data === true)
    worker.onerror = (event) => {
      event.preventDefault()
      done(false)
    }
  })
}

/** The main thread where it can draw WebGL; else nowhere (the posters stay), fetching nothing. */
export const mainOrOff = (): RenderPath => (mainWebGL() ? 'main' : 'off')

/**
 * The worker path where the browser can hand a canvas to a worker and a worker can draw on it
 * (asked of `workerCanDraw`, off the main thread), unless `forceMain`; else the main thread,
 * without fetching the renderer's worker; else (no WebGL at all) none.
 */
export async function firstPath(
  forceMain: boolean,
  workerCanDraw: () => Promise<boolean>,
): Promise<RenderPath> {
  if (forceMain) return mainOrOff()
  return (await workerPath(workerCanDraw)) ? 'worker' : mainOrOff()
}

/**
 * Whether the browser can hand a canvas to a worker and a worker can draw on it (asked of
 * `workerCanDraw`, off the main thread). The page's own thread makes no context to find out.
 */
export async function workerPath(workerCanDraw: () => Promise<boolean>): Promise<boolean> {
  const canTransfer =
    typeof Worker !== 'undefined' &&
    typeof OffscreenCanvas !== 'undefined' &&
    'transferControlToOffscreen' in HTMLCanvasElement.prototype
  return canTransfer && (await workerCanDraw())
}
