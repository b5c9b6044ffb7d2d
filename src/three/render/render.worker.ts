// The 3D renderer's Web Worker: three.js, R3F, scene building, model decoding, shader
// compilation and the frame loop all run here, on the OffscreenCanvas the page transferred.
// The page's first message is `init` with the canvas; every later one goes to the renderer.
import { startRenderer } from './renderer'
import type { FromRenderer, ToRenderer } from '../protocol'

const post = (message: FromRenderer) => self.postMessage(message)
let receive: ((message: ToRenderer) => void) | null = null

self.onmessage = (event: MessageEvent<ToRenderer>) => {
  const message = event.data
  if (receive) receive(message)
  else if (message.type !== 'init' || !message.canvas)
    post({ type: 'unsupported', reason: 'the worker was not given its canvas first' })
  else if (
    typeof WebGL2RenderingContext === 'undefined' &&
    typeof WebGLRenderingContext === 'undefined'
  )
    post({ type: 'unsupported', reason: 'no WebGL in workers here' })
  else receive = startRenderer(message.canvas, message, post)
}
