// The 3D renderer's Web Worker: three.js, R3F, scene building, model decoding, shader
// compilation and the frame loop all run here, on the OffscreenCanvas the page transferred.
// The page's first message is `init` with the canvas, or `warm` (any number of them) before it:
// a slot nears the screen, so the worker measures its GPU and fetches the models while the page
// has no canvas for it yet. Every message after `init` goes to the renderer.
import { startRenderer, warm } from './renderer'
import type { FromRenderer, ToRenderer } from '../protocol'
import { relayNestedWorkers } from '../worker-relay'

const post = (message: FromRenderer) => self.postMessage(message)
let receive: ((message: ToRenderer) => void) | null = null

// Where a worker's own workers can hang it (Firefox), the decoders' workers are the page's.
relayNestedWorkers()

// What the worker's own policy refuses (a fetch, a decoder's worker, WebAssembly) fires here, not
// on the page: the page re-dispatches it on its document (CanvasHost.tsx), where the site's
// listeners and the tests' recorders hear it as they hear the page's own.
self.addEventListener('securitypolicyviolation', (event) =>
  post({
    type: 'violation',
    violation: {
      violatedDirective: event.violatedDirective,
      effectiveDirective: event.effectiveDirective,
      blockedURI: event.blockedURI,
      originalPolicy: event.originalPolicy,
      sourceFile: event.sourceFile,
      lineNumber: event.lineNumber,
      columnNumber: event.columnNumber,
      disposition: event.disposition,
      statusCode: event.statusCode,
    },
  }),
)

self.onmessage = (event: MessageEvent<ToRenderer>) => {
  const message = event.data
  if (receive) receive(message)
  else if (message.type === 'warm') {
    if (
      typeof WebGL2RenderingContext !== 'undefined' ||
      typeof WebGLRenderingContext !== 'undefined'
    )
      warm(message)
  } else if (message.type !== 'init' || !message.canvas)
    post({ type: 'unsupported', reason: 'the worker was not given its canvas first' })
  else if (
    typeof WebGL2RenderingContext === 'undefined' &&
    typeof WebGLRenderingContext === 'undefined'
  )
    post({ type: 'unsupported', reason: 'no WebGL in workers here' })
  else receive = startRenderer(message.canvas, message, post)
}
